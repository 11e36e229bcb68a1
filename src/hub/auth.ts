/**
 * Who may talk to the hub. Three checks on every /mcp and /openspace/* request:
 * - Host must be a loopback name (DNS rebinding: a web page whose name resolves to 127.0.0.1);
 * - Origin, when a browser sends one, must be the hub's own origin or one configured;
 * - the access token generated at start must come as `Authorization: Bearer <token>` (compared in
 *   constant time). GET /openspace/instructions also takes it as `?access_token=` (RFC 6750 §2.3)
 *   for clients that fetch instructions from a URL without headers.
 * The token is written, readable by the owner only, to a lock file clients can discover
 * (src/security/lock-file.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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
