/**
 * Where a path argument points for the known-safe rules: inside the workspace, outside it (or only
 * known at run time), at a credential, or into a protected path. Relative paths are resolved from
 * every directory a `cd` earlier in the text may have left the shell in.
 */
import { basename, normalizeAbsolute, normalizeRelative, under } from '../dangerous-commands/paths.js';
import type { Arg } from '../dangerous-commands/words.js';

export type Where = 'inside' | 'outside' | 'credentials' | 'protected';

export interface Place {
  /** Absolute workspace root, if known. */
  readonly cwd: string | undefined;
  /** Where the shell may be, relative to the root; undefined once a `cd` may have left the workspace. */
  dirs: string[] | undefined;
  readonly isSensitive: (workspacePath: string) => string | undefined;
  readonly isProtected: (workspacePath: string) => string | undefined;
}

const HOME = /^(~|\$HOME(?![A-Za-z0-9_])|\$\{HOME\})/;
/** Credential files and directories outside the workspace (the file policy covers names like id_rsa anywhere). */
const CREDENTIALS =
  /(^|\/)\.(ssh|aws|gnupg|kube|docker|azure|password-store|netrc|git-credentials|npmrc|pypirc|pgpass|config\/gh|config\/gcloud)(\/|$)|^\/etc\/(shadow|gshadow|sudoers|master\.passwd)/;

const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/stdin']);

/** Looks like a path that could leave the workspace: absolute, in home, or climbing with `..`. */
export function looksLikePath(value: string): boolean {
  return value.startsWith('/') || HOME.test(value) || value.split('/').includes('..');
}

/** The workspace-relative paths `arg` may name, or why it names none. */
export function resolve(arg: Arg, place: Place): string[] | 'outside' | 'credentials' {
  const v = arg.value;
  if (HOME.test(v)) return CREDENTIALS.test(v.replace(HOME, '')) || place.isSensitive(v.replace(HOME, '')) ? 'credentials' : 'outside';
  // A variable or substitution: only known at run time (a glob is judged as written).
  if (!arg.literal && /[$`]/.test(v)) return 'outside';
  if (v.startsWith('/')) {
    const abs = normalizeAbsolute(v);
    // Devices that only give or swallow bytes are the same everywhere.
    if (HARMLESS_DEVICES.has(abs)) return [];
    if (place.cwd && under(abs, place.cwd)) return [abs === place.cwd ? '' : abs.slice(place.cwd.length + 1).replace(/^\//, '')];
    return CREDENTIALS.test(abs) || place.isSensitive(abs.slice(1)) ? 'credentials' : 'outside';
  }
  if (!place.dirs) return 'outside';
  const paths: string[] = [];
  for (const dir of place.dirs) {
    const p = normalizeRelative(dir ? `${dir}/${v}` : v);
    if (p === undefined) return 'outside';
    paths.push(p);
  }
  return paths;
}

export function whereIs(arg: Arg, place: Place, writing: boolean): Where {
  const paths = resolve(arg, place);
  if (!Array.isArray(paths)) return paths;
  if (paths.some((p) => place.isSensitive(p))) return 'credentials';
  if (writing && paths.some((p) => p && place.isProtected(p))) return 'protected';
  return 'inside';
}

/** Whether a program named with a path may be looked up as its base name. */
export function programName(value: string, place: Place): string | undefined {
  if (!value.includes('/')) return value;
  const name = basename(value);
  if (/^\/(usr\/(local\/)?)?s?bin\/[^/]+$/.test(value) || /^\/opt\/homebrew\/bin\/[^/]+$/.test(value)) return name;
  // Tools a project installs into itself, and the build wrappers it checks in.
  const paths = resolve({ value, literal: true, unquotedExpansion: false, hasGlob: false, word: undefined, pos: 0, end: 0 }, place);
  if (!Array.isArray(paths)) return undefined;
  const inToolDir = paths.every((p) => /(^|\/)(node_modules\/\.bin|vendor\/bin|\.?venv\/bin)\/[^/]+$/.test(p));
  return inToolDir || name === 'gradlew' || name === 'mvnw' ? name : undefined;
}
