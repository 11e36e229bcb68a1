/**
 * The person's "Always allow" answers to OpenCode's permission requests, kept as rules in the user
 * setting openspace.chat.alwaysAllow: `<permission>` allows every request of that permission,
 * `<permission> <pattern>` those whose every pattern the wildcard pattern (`*`, `?`) matches, as
 * OpenCode's own "always" does: `bash git log*`, `edit src/*`, `openspace_openspace_file_write`.
 */
import type { PermissionRequest } from '../../common/chat-protocol.js';

/** The rules an "Always allow" of `request` keeps: OpenCode's own suggestion (`always`) for it. */
export function alwaysRules(request: Pick<PermissionRequest, 'permission' | 'always'>): string[] {
  if (request.always.length === 0 || request.always.includes('*')) return [request.permission];
  return request.always.map((pattern) => `${request.permission} ${pattern}`);
}

const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '.*')
      .replaceAll('?', '.')}$`,
    's',
  );

export function matchesRule(rule: string, request: Pick<PermissionRequest, 'permission' | 'patterns'>): boolean {
  const trimmed = rule.trim();
  const space = trimmed.indexOf(' ');
  const permission = space < 0 ? trimmed : trimmed.slice(0, space);
  const pattern = space < 0 ? undefined : trimmed.slice(space + 1).trim();
  if (!permission || !wildcard(permission).test(request.permission)) return false;
  if (pattern === undefined) return true;
  const match = wildcard(pattern);
  return request.patterns.length > 0 && request.patterns.every((p) => match.test(p));
}
