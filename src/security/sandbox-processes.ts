/**
 * The processes of sandboxes on this machine (Linux's /proc, Node only): ending a sandbox's session,
 * finding its shell and the directory it is in, counting a user's processes.
 */
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

/**
 * End a sandbox whose bwrap leads the session `sessionId` (a terminal's process): SIGKILL to every
 * process in that session, bwrap and the sandbox's init among them, whose end ends the rest of its
 * process namespace. Not a hangup to bwrap alone: its --die-with-parent misses the sandbox when bwrap
 * dies while still setting it up (a terminal closed as it opens: about 1 in 50 in a tight loop).
 */
export function endSandboxSession(sessionId: number): void {
  // The sandbox's init first (bwrap's child): its end ends its whole process namespace at once,
  // where killing process by process loses the race against a fork bomb.
  for (const child of childrenOf(sessionId)) kill(child);
  kill(sessionId);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (Number(statFields(Number(entry))?.[3]) === sessionId) kill(Number(entry));
  }
}

/** Whether a process with this id exists (one of another user's counts too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function processesOfThisUser(): number {
  const uid = process.getuid?.();
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (statSync(`/proc/${entry}`).uid === uid) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

/**
 * The directory the shell of a sandbox is in now (`sessionId`: the terminal's process, its bwrap), as
 * the kernel says rather than as the terminal's output claims (an agent prints what it likes): the
 * sandbox's first process that is not bwrap, the shell bwrap started. Orphans the shell leaves are
 * adopted by the sandbox's init too, but started later. Undefined when `sessionId` is no bwrap or
 * the shell ended. The workspace is bound at its own path, so the path inside is the path outside.
 */
export function shellDirectory(bwrap: string, sessionId: number): string | undefined {
  let pid = sessionId;
  for (let depth = 0; executable(pid) === bwrap; depth++) {
    const children = childrenOf(pid);
    if (depth === 3 || children.length === 0) return undefined;
    pid = children.map((child) => ({ child, started: startTime(child) })).sort((a, b) => a.started - b.started || a.child - b.child)[0]!
      .child;
  }
  if (pid === sessionId) return undefined;
  try {
    const dir = readlinkSync(`/proc/${pid}/cwd`);
    return dir.endsWith(' (deleted)') ? undefined : dir;
  } catch {
    return undefined; // ended meanwhile
  }
}

/** The program a process runs (its /proc exe link), or undefined once it ended. */
export function executable(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/** Resolves once `pid` runs `program` no more (ended, or a zombie), or after `timeoutMs`. */
export async function ended(pid: number, program: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (executable(pid) === program && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** When a process started, in clock ticks since boot (Infinity once it ended). */
function startTime(pid: number): number {
  return Number(statFields(pid)?.[19] ?? Infinity);
}

/** /proc/<pid>/stat from its third field on (state ppid pgrp session …; comm may hold spaces and parentheses), or undefined once it ended. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return []; // ended, or a kernel without the list: the scan below finds them
  }
}

export function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}
