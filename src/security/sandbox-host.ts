/**
 * The sandbox on this machine (Node only): whether bubblewrap works here, and the command line that
 * runs a shell in it (src/security/sandbox.ts has the rules).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { lockDir } from '../hub/auth.js';
import { bwrapArgs, expandHome, type HiddenPath, type SandboxSettings } from './sandbox.js';

export type BwrapProbe = { available: true; path: string } | { available: false; reason: string };

let probed: BwrapProbe | undefined;

/** Whether bubblewrap can build the sandbox here: found on PATH, and one trial run worked. Tried once per process. */
export function probeBwrap(): BwrapProbe {
  return (probed ??= probe());
}

function probe(): BwrapProbe {
  if (process.platform !== 'linux')
    return { available: false, reason: `the sandbox needs Linux's bubblewrap, and this is ${process.platform}` };
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'bwrap'))
    .find(isExecutable);
  if (!path) return { available: false, reason: 'bubblewrap (bwrap) is not installed' };
  const trial = spawnSync(path, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (trial.status !== 0) {
    const why = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim();
    return { available: false, reason: `bubblewrap (${path}) cannot make a sandbox here: ${why}` };
  }
  return { available: true, path };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface SandboxPlace {
  /** Absolute workspace directory. */
  workspace: string;
  /** Absolute directory the command starts in. */
  cwd: string;
  /** Whose `~/` the hidden paths mean (default: this process's home). */
  home?: string;
  /** Absolute paths hidden besides the settings' and the hub's lock directory. */
  alsoHidden?: string[];
}

/**
 * bwrap and its arguments, running `command` in the sandbox the settings describe. The hub's lock
 * directory (its files hold the access token) is always hidden, wherever OPENSPACE_LOCK_DIR puts it.
 */
export function sandboxCommand(bwrap: string, settings: SandboxSettings, place: SandboxPlace, command: string[]): string[] {
  const home = place.home ?? homedir();
  const paths = [...settings.hiddenPaths.map((path) => expandHome(path, home)), lockDir(), ...(place.alsoHidden ?? [])];
  const hidden = [...new Set(paths)].flatMap(existing);
  return [bwrap, ...bwrapArgs({ workspace: place.workspace, cwd: place.cwd, network: settings.network, hidden, command })];
}

/** bwrap can only cover what exists: a path that is not there has nothing to hide. */
function existing(path: string): HiddenPath[] {
  try {
    return [{ path, kind: statSync(path).isDirectory() ? 'directory' : 'file' }];
  } catch {
    return [];
  }
}

/**
 * End a sandbox whose bwrap leads the session `sessionId` (a terminal's process): SIGKILL to every
 * process in that session, bwrap and the sandbox's init among them, whose end ends the rest of its
 * process namespace. Not a hangup to bwrap alone: its --die-with-parent misses the sandbox when bwrap
 * dies while still setting it up (a terminal closed as it opens: about 1 in 50 in a tight loop).
 */
export function endSandboxSession(sessionId: number): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses.
    const session = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
    if (session !== sessionId) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
