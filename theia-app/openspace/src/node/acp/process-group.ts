/** Ending a process that started others: an agent's adapter and the CLI under it. */

import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/**
 * SIGTERM to the agent's process group, SIGKILL to what is left after 3 s; resolves once none of the
 * group runs (Claude Code's CLI outlives its adapter by a moment, writing its settings as it exits).
 */
export async function stop(child: ChildProcess): Promise<void> {
  const group = child.pid!;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-group, name);
    } catch {
      // The group has ended.
    }
  };
  signal('SIGTERM');
  for (const [deadline, last] of [
    [Date.now() + 3000, false],
    [Date.now() + 5000, true],
  ] as const) {
    while (Date.now() < deadline && (await running(group))) await new Promise((r) => setTimeout(r, 50));
    if (last || !(await running(group))) break;
    signal('SIGKILL');
  }
  await exited;
}

/** Whether any process of the group still runs (a zombie has ended); without /proc, whether the group leader does. */
async function running(group: number): Promise<boolean> {
  const ids = await readdir('/proc').catch(() => undefined);
  if (!ids) return processExists(group);
  for (const id of ids.filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${id}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') return true;
  }
  return false;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
