/**
 * The lock file a hub announces itself in, `~/.openspace/ide/<port>.lock` (as Claude Code's IDE
 * integration finds IDEs): its URL and access token, readable by the owner only. It lives with the
 * security code because the sandbox hides the lock directory from agent terminals.
 */
import { rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from './sandbox-processes.js';

export interface LockFile {
  pid: number;
  ideName: string;
  url: string;
  mcpUrl: string;
  /** Absent when the hub runs with --no-auth. */
  authToken?: string;
  workspaceFolders: string[];
  startedAt: string;
}

/** Where hubs announce themselves: `~/.openspace/ide/<port>.lock`, or OPENSPACE_LOCK_DIR. */
export function lockDir(): string {
  return process.env.OPENSPACE_LOCK_DIR ?? join(homedir(), '.openspace', 'ide');
}

export function lockFilePath(port: number): string {
  return join(lockDir(), `${port}.lock`);
}

/**
 * Write the lock file, owner-only (0600 in a 0700 directory); returns a function that removes it.
 * The removal is synchronous: a process that stops right after (Theia's onStop) still removes it.
 */
export async function writeLockFile(port: number, lock: LockFile): Promise<() => void> {
  await mkdir(lockDir(), { recursive: true, mode: 0o700 });
  const file = lockFilePath(port);
  await rm(file, { force: true });
  // Written whole under another name, then renamed: a reader never sees half a lock file.
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(lock, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(partial, file);
  return () => rmSync(file, { force: true });
}

/**
 * The lock file of the hub on `port`, waiting up to `timeoutMs` for it to appear; undefined if it
 * does not. A lock whose process is gone (a hub killed before it could remove it) counts as missing:
 * a new hub on the same port would otherwise be announced with the old one's token.
 */
export async function readLockFile(port: number, timeoutMs = 0): Promise<LockFile | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const lock = JSON.parse(await readFile(lockFilePath(port), 'utf8')) as LockFile;
      if (isAlive(lock.pid)) return lock;
    } catch (err) {
      // Missing, or (from a hub before lock files were renamed into place) not yet whole: wait.
      const waitable = (err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError;
      if (!waitable) return undefined;
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}
