/**
 * Where a running Node program's inspector is, for debug.attach: by port (a program started with
 * `--inspect`), or by process ID — its inspector's port found among the loopback ports the process
 * listens on (Linux's /proc), after turning the inspector on as `kill -USR1` does when it is off
 * (it then listens on 9229, or on what `--inspect-port` said).
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** How long a process's inspector may take to open after it is turned on. */
const OPEN_WAIT_MS = 3000;

/** The WebSocket URL of the inspector on a loopback port, or undefined when none answers there. */
export async function inspectorAt(port: number): Promise<string | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(2000) });
    const targets = (await response.json()) as { type?: string; webSocketDebuggerUrl?: string }[];
    return targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
  } catch {
    return undefined;
  }
}

/** The TCP ports a process listens on at 127.0.0.1 (from /proc: its sockets' inodes in the kernel's table). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
    // 0100007F: 127.0.0.1; 0A: LISTEN.
    if (!local?.startsWith('0100007F:') || state !== '0A' || !inode || !inodes.has(inode)) continue;
    ports.push(parseInt(local.split(':')[1]!, 16));
  }
  return ports;
}

async function inspectorOf(pid: number): Promise<string | undefined> {
  for (const port of listeningPorts(pid)) {
    const url = await inspectorAt(port);
    if (url) return url;
  }
  return undefined;
}

/** The inspector of a running Node process, turned on if it is off; throws saying why there is none. */
export async function inspectorOfProcess(pid: number): Promise<string> {
  try {
    readlinkSync(`/proc/${pid}/exe`);
  } catch {
    throw new Error(`There is no process ${pid} here (or it is not this user's).`);
  }
  const open = await inspectorOf(pid);
  if (open) return open;
  try {
    // What `kill -USR1 <pid>` does to a Node process: its inspector starts listening.
    (process as unknown as { _debugProcess(pid: number): void })._debugProcess(pid);
  } catch (error) {
    throw new Error(`Process ${pid} would not turn its inspector on: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  for (const deadline = Date.now() + OPEN_WAIT_MS; Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const url = await inspectorOf(pid);
    if (url) return url;
  }
  throw new Error(`Process ${pid} opened no inspector on 127.0.0.1 within ${OPEN_WAIT_MS / 1000} s: is it a Node program?`);
}
