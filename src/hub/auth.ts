/**
 * Who may talk to the hub. Three checks on every /mcp and /openspace/* request:
 * - Host must be a loopback name (DNS rebinding: a web page whose name resolves to 127.0.0.1);
 * - Origin, when a browser sends one, must be the hub's own origin or one configured;
 * - the access token generated at start must come as `Authorization: Bearer <token>` (compared in
 *   constant time). GET /openspace/instructions also takes it as `?access_token=` (RFC 6750 §2.3)
 *   for clients that fetch instructions from a URL without headers.
 * The token is written, readable by the owner only, to a lock file clients can discover.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HubRequest } from './http.js';

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Equal strings, in time independent of where they differ (hashing first evens out the lengths). */
export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** DNS-rebinding protection: only loopback names in the Host header. */
export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader || /[\s/\\@?#]/.test(hostHeader)) return false;
  try {
    const url = new URL(`http://${hostHeader}`);
    return LOOPBACK_HOSTNAMES.has(url.hostname) && url.host === hostHeader.toLowerCase().replace(/:80$/, '');
  } catch {
    return false;
  }
}

/**
 * A browser's Origin header: absent (not a browser, or same-origin GET) is allowed; present, it must
 * be the origin the request was addressed to (http or https, the same Host) or one configured.
 */
export function isAllowedOrigin(origin: string | undefined, hostHeader: string | undefined, allowed: readonly string[] = []): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  if (!hostHeader) return false;
  return origin === `http://${hostHeader}` || origin === `https://${hostHeader}`;
}

export type AccessVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

export interface AccessOptions {
  /** Reject requests whose Host header is not a loopback name. */
  localhostOnly: boolean;
  /** Origins allowed besides the hub's own. */
  allowedOrigins: readonly string[];
  /** The bearer token required; undefined when access control is off (--no-auth). */
  token: string | undefined;
}

export function checkAccess(req: HubRequest, path: string, options: AccessOptions): AccessVerdict {
  const host = req.headers.host;
  if (options.localhostOnly && !isLoopbackHost(host)) {
    return { ok: false, status: 403, message: `Invalid Host header "${host ?? ''}": this hub answers loopback names only.` };
  }
  const origin = req.headers.origin;
  if (!isAllowedOrigin(origin, host, options.allowedOrigins)) {
    return {
      ok: false,
      status: 403,
      message: `Origin "${origin}" may not call this hub; only its own origin${options.allowedOrigins.length ? ' and the configured ones' : ''} may.`,
    };
  }
  if (options.token === undefined) return { ok: true };
  const given = bearerToken(req, path);
  if (given === undefined) {
    return {
      ok: false,
      status: 401,
      message:
        'Missing access token: send "Authorization: Bearer <token>" (the token is in the client config the hub printed, and in its lock file).',
    };
  }
  if (!tokensEqual(given, options.token)) return { ok: false, status: 401, message: 'Wrong access token.' };
  return { ok: true };
}

function bearerToken(req: HubRequest, path: string): string | undefined {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match) return match[1];
  if (req.method === 'GET' && path === '/openspace/instructions') {
    return new URL(req.url ?? '/', 'http://hub').searchParams.get('access_token') ?? undefined;
  }
  return undefined;
}

/** What a lock file tells a client about a running hub. */
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
  const { readFile } = await import('node:fs/promises');
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
