/**
 * Path classification: where an argument points (inside the workspace, a scratch directory, a
 * device, home, a system directory, elsewhere), judged by its literal prefix when it is not literal.
 */
import type { Ctx } from './context.js';
import type { Arg } from './words.js';

export type PathClass = 'inside' | 'scratch' | 'safe-device' | 'device' | 'home' | 'outside' | 'system' | 'unknown';

const SAFE_DEVICES = new Set([
  '/dev/null',
  '/dev/zero',
  '/dev/full',
  '/dev/random',
  '/dev/urandom',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  '/dev/ptmx',
]);
const SAFE_DEVICE_DIRS = ['/dev/fd/', '/dev/pts/', '/dev/shm/'];
const SCRATCH_DIRS = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/tmp', '/var/folders', '/private/var/folders'];
const SYSTEM_DIRS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/System',
  '/Library',
  '/Applications',
  '/private',
  '/home',
  '/Users',
];

export function normalizeAbsolute(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`;
}

/** Normalises a relative path; returns undefined if it climbs above its start (`../x`, `a/../../x`). */
export function normalizeRelative(p: string): string | undefined {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

export function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);
}

export function classifyPath(arg: Arg, ctx: Ctx): PathClass {
  let v = arg.value;
  if (/^(~|\$HOME(?![A-Za-z0-9_])|\$\{HOME\})/.test(v)) return 'home';
  if (!arg.literal) {
    // Judge by the literal prefix before the first expansion or glob.
    const m = /[$`*?[]/.exec(v);
    if (m) v = v.slice(0, m.index);
    if (!v.startsWith('/')) return 'unknown';
    // `/tmp/*.log`, `/dev/$DISK`: something inside the directory the literal prefix names.
    if (v.endsWith('/')) v += '_';
  }
  if (v.startsWith('/')) {
    const abs = normalizeAbsolute(v);
    if (SAFE_DEVICES.has(abs) || SAFE_DEVICE_DIRS.some((d) => abs.startsWith(d))) return 'safe-device';
    if (abs.startsWith('/dev/')) return 'device';
    const cwd = ctx.shared.cwd;
    if (cwd && under(abs, cwd)) return 'inside';
    if (SCRATCH_DIRS.some((d) => under(abs, d) && abs !== d)) return 'scratch';
    if (abs === '/' || SYSTEM_DIRS.some((d) => under(abs, d))) {
      // /home/<user>/… is someone's files, not the system; the home root itself is.
      if ((abs.startsWith('/home/') || abs.startsWith('/Users/')) && abs.split('/').length > 2) return 'outside';
      return 'system';
    }
    return 'outside';
  }
  if (normalizeRelative(v) === undefined) return 'outside';
  return ctx.shared.cwdLeft ? 'outside' : 'inside';
}

export function isHomeDotfile(arg: Arg): boolean {
  return /^(~|\$HOME|\$\{HOME\})[^/]*\/\./.test(arg.value);
}

export function basename(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}
