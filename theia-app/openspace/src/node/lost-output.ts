import { fstatSync } from 'node:fs';

/**
 * A backend whose starter is gone stops, as if stopped with Ctrl+C. `npm run theia` and the test
 * harness start it with a pipe for its stdin that they hold and never write to (conformance/
 * theia-launch.ts): when that process ends, however it ends (killed, crashed), the pipe reaches its
 * end, as esbuild's watch mode takes it. A pipe it writes its output to whose reader is gone (EPIPE)
 * stops it too: each line Theia logged then failed with EPIPE, which Theia's handler of uncaught
 * exceptions logged, to the same broken pipe, at 100% of a CPU for good. Stdin that is a terminal,
 * a file or nothing is left alone.
 */
export function stopWithStarter(
  stop: () => void,
  stdin: NodeJS.ReadStream = process.stdin,
  outputs: NodeJS.WriteStream[] = [process.stdout, process.stderr],
): void {
  let stopping = false;
  const once = () => {
    if (stopping) return;
    stopping = true;
    stop();
  };
  for (const stream of outputs) stream.on('error', (err: NodeJS.ErrnoException) => err.code === 'EPIPE' && once());
  if (isPipe(stdin)) stdin.on('end', once).on('error', once).resume();
}

function isPipe(stream: NodeJS.ReadStream): boolean {
  try {
    const fd = (stream as { fd?: unknown }).fd;
    if (typeof fd !== 'number') return false;
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket(); // Node gives a child's stdin as a socket pair
  } catch {
    return false;
  }
}
