import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError, log } from './utils.js';

/** A signed-in user, as the routes see it. */
export interface Session {
  user: string;
  expiresAt: number;
}

const SESSION_TTL_MS = 60 * 60 * 1000;
const sessions = new Map<string, Session>();

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Tokens are compared in constant time so their contents cannot be guessed from timing. */
function sameToken(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

export function startSession(user: string, token: string): Session {
  const session = { user, expiresAt: Date.now() + SESSION_TTL_MS };
  sessions.set(token, session);
  log('session started', { user });
  return session;
}

export function endSession(token: string): void {
  sessions.delete(token);
}

function bearerToken(header: string | undefined): string {
  if (!header) throw new HttpError(401, 'missing Authorization header');
  const [scheme, token] = header.split(' ');
  if (scheme !== 'Bearer' || !token) throw new HttpError(401, 'expected a Bearer token');
  return token;
}

/**
 * Find the session for a request's Authorization header.
 * Expired sessions are removed on the way.
 */
export function authenticate(header: string | undefined): Session {
  const token = bearerToken(header);
  for (const [known, session] of sessions) {
    if (!sameToken(known, token)) continue;
    if (session.expiresAt < Date.now()) {
      sessions.delete(known);
      throw new HttpError(401, 'session expired');
    }
    // TODO: slide the expiry forward on every request?
    return session;
  }
  throw new HttpError(401, 'unknown session');
}

export function activeSessions(): number {
  const now = Date.now();
  let count = 0;
  for (const session of sessions.values()) if (session.expiresAt >= now) count++;
  return count;
}
