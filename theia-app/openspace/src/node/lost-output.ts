/**
 * A backend whose output lost its reader ends, as if stopped. The process that started it reads its
 * stdout and stderr through pipes; once that process is gone (killed, crashed), each line Theia logs
 * fails with EPIPE, which Theia's handler of uncaught exceptions logs, to the same broken pipe: a
 * backend left like that spun at 100% of a CPU for good, serving nobody.
 */
export function stopWhenOutputIsLost(stop: () => void, streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  let stopping = false;
  for (const stream of streams)
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' || stopping) return;
      stopping = true;
      stop();
    });
}
