/**
 * The processes of sandboxes on this machine (Linux's /proc, Node only): ending a sandbox's session,
 * finding its shell and the directory it is in, counting a user's processes.
 */
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

/**
 * End a sandbox whose bwrap leads the session `sessionId` (a terminal's process): SIGKILL to every
 * process in that session and in the sandbox's process namespace, from here. Not a hangup to bwrap
 * alone: its --die-with-parent misses the sandbox when bwrap dies while still setting it up (a
 * terminal closed as it opens: about 1 in 50 in a tight loop). Not the sandbox's init alone either,
 * though its end ends its whole namespace: the init must first be given the CPU to die, and the
 * sandboxes have a low CPU weight, so on a busy machine a fork bomb went on for seconds. Sent
 * from here, the signal is pending in each process at once, and a killed process forks no more; a
 * child forked while the list was read is found in the next round.
 */
export function endSandboxSession(sessionId: number): void {
  // The namespaces of bwrap's children, never the one bwrap or this process is in (a child caught
  // before bwrap made its namespace is in this machine's).
  const outside = [pidNamespace(sessionId), pidNamespace(process.pid)];
  const namespaces = new Set(
    childrenOf(sessionId)
      .flatMap((child) => pidNamespace(child) ?? [])
      .filter((namespace) => !outside.includes(namespace)),
  );
  for (const child of childrenOf(sessionId)) kill(child);
  kill(sessionId);
  const killed = new Set<number>();
  // Rounds until one finds nobody new (at most 100: a process that cannot be killed is not waited for).
  for (let found = true, round = 0; found && round < 100; round++) {
    found = false;
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || killed.has(pid)) continue;
      const namespace = namespaces.size > 0 ? pidNamespace(pid) : undefined;
      if ((namespace !== undefined && namespaces.has(namespace)) || Number(statFields(pid)?.[3]) === sessionId) {
        kill(pid);
        killed.add(pid);
        found = true;
      }
    }
  }
}

/** The process namespace a process is in (its /proc ns/pid link), or undefined once it ended. */
function pidNamespace(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
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
    pid = children
      .map((child) => ({ child, started: startTime(child) }))
      .sort((a, b) => a.started - b.started || a.child - b.child)[0]!.child;
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

/**
 * Whether `pid` runs `program`, waiting up to `timeoutMs` while it runs something else: a sandbox's
 * launch chain (sh into its cgroups, env, prlimit) becomes bwrap in the same process, slowly at the
 * sandboxes' CPU weight on a busy machine. False once it ended, or ran something else throughout.
 */
export async function becomes(pid: number, program: string, timeoutMs: number): Promise<boolean> {
  let running: string | undefined;
  await pollUntil(() => (running = executable(pid)) === program || running === undefined, timeoutMs);
  return running === program;
}

/** Resolves once `pid` runs `program` no more (ended, or a zombie), or after `timeoutMs`. */
export async function ended(pid: number, program: string, timeoutMs: number): Promise<void> {
  await pollUntil(() => executable(pid) !== program, timeoutMs);
}

/** Checks `done` every 10 ms until it holds or `timeoutMs` has passed. */
async function pollUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** When a process started, in clock ticks since boot (Infinity once it ended). */
function startTime(pid: number): number {
  return Number(statFields(pid)?.[19] ?? Infinity);
}

/** /proc/<pid>/stat from its third field on (state ppid pgrp session …; comm may hold spaces and parentheses), or undefined once it ended. */
export function statFields(pid: number): string[] | undefined {
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
