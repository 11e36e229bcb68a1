/**
 * Which workspace paths an agent may not read (sensitive) and may not write (protected).
 * Browser-safe: picomatch's posix build only, no Node built-ins.
 *
 * Matching rules:
 * - Paths are workspace-relative with '/' separators; `\` is read as '/', and `.`, `..` and empty
 *   segments are resolved lexically before matching (`a/../.env` is `.env`; `..` above the root
 *   is dropped).
 * - Matching is case-insensitive (`.ENV`, `ID_RSA`, `.Git/config` match) and dotfiles are ordinary
 *   names (picomatch `{ dot: true, nocase: true }`).
 * - Names are judged in Unicode NFC (as are patterns; macOS stores names decomposed), without
 *   leading or trailing whitespace and without trailing dots (`.env `, ` .env`, `.git./config` and
 *   `ID_RSA.` match: Windows drops the dots and spaces, and they are easy to slip in). A name made
 *   only of dots and spaces is kept as it is.
 * - Every pattern matches at any depth: `P` is matched as `** /P` (without the space), so a pattern
 *   without '/' matches a base name anywhere (`id_rsa`, `*.pem`), and `.git/**` matches
 *   `sub/.git/config`. There is no root anchoring.
 * - `dir/**` also matches the directory itself (`.git`, also when `.git` is a worktree's file).
 *   A pattern ending in '/' means `dir/**`.
 * - A pattern without '/' matches the base name only, not what is below a directory of that name:
 *   `.env` hides a `.env` file (or directory entry) but not `.env/lib/x.py` of a virtualenv called
 *   `.env`; write `name/**` to cover a whole directory.
 * - User patterns extend the defaults and never remove one. The verdict is the first matching pattern,
 *   defaults first.
 *
 * Decisions on near misses of the defaults (see file-policy.test.ts):
 * - `.envrc` (direnv) is sensitive by its own pattern (it often exports tokens) and protected (direnv
 *   runs it as shell code when someone enters the directory). `.env.*` still needs the dot:
 *   `.env-backup` is neither.
 * - `*.env` (`prod.env`, `config/staging.env`) is sensitive: dotenv files named by environment.
 *   `environment.ts`, `src/env.ts` and `envs/readme.md` are not (the name must end in `.env`).
 * - `.env.example`, `.env.sample` ARE sensitive (`.env.*`), as in the spec's denylist.
 * - `.gitignore`, `.gitattributes`, `.gitmodules`, `src/.git-blame-ignore-revs` are neither
 *   sensitive nor protected: only a path component exactly `.git` is. Below `.github/` only
 *   `workflows/` is protected (CI runs it); `.github/CODEOWNERS` or issue templates are not.
 * - Protected besides `.git`, `node_modules`, `.theia` and `.openspace`: every path whose contents
 *   run as code later outside the sandbox (CODE_RUNNING_PATTERNS: `.vscode/`, `.husky/`,
 *   `.github/workflows/`, `.devcontainer/`, `.envrc`, `.npmrc`), at any depth, so an agent cannot
 *   plant a hook or task that the person's next `git commit`, folder open or CI run executes.
 * - `secrets.*` covers any extension, so `src/secrets.ts` is sensitive; `id_rsa.pub` and
 *   `keys/pubkey.pub` are not; `my.key.txt` is not (`*.key` must end the name).
 * - Protection is separate from sensitivity: `.env` is readable-denied but not write-protected;
 *   `.vscode/tasks.json` is write-protected but readable; `.git/**` and `.envrc` are both.
 */
import picomatch from 'picomatch/posix.js';
import { CODE_RUNNING_PATTERNS } from './code-running-paths.js';

/** Reads refused. */
export const DEFAULT_SENSITIVE_PATTERNS: readonly string[] = Object.freeze([
  '.env',
  '.env.*',
  '*.env',
  '.envrc',
  '.git/**',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  '*.pem',
  '*.key',
  'credentials.json',
  'secrets.*',
  '**/secrets/**',
  '.aws/credentials',
  // OpenSpace's own records: agents see them through tools (file.snapshots), not as files.
  '.openspace/audit.ndjson',
  '.openspace/snapshots/**',
]);

/** Writes refused: OpenSpace's and git's own directories, dependencies, and every code-running path. */
export const DEFAULT_PROTECTED_PATTERNS: readonly string[] = Object.freeze([
  ...new Set(['.git/**', 'node_modules/**', '.theia/**', '.openspace/**', ...CODE_RUNNING_PATTERNS]),
]);

export interface FilePolicyOptions {
  /** Added to DEFAULT_SENSITIVE_PATTERNS. */
  sensitivePatterns?: string[];
  /** Added to DEFAULT_PROTECTED_PATTERNS. */
  protectedPatterns?: string[];
}

export interface FilePolicy {
  /** The first pattern that makes reading relPath refused, or undefined. */
  isSensitive(relPath: string): string | undefined;
  /** The first pattern that makes writing relPath refused, or undefined. */
  isProtected(relPath: string): string | undefined;
}

/**
 * Why a user pattern is invalid, or undefined when it is fine: not a string, empty or blank, a NUL
 * character, absolute (`/x`, `\x`, `C:x`, `~/x`), or a `..` segment (it could never match a
 * workspace-relative path).
 */
export function validateFilePattern(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return 'pattern must be a string';
  if (pattern.trim() === '') return 'pattern is empty';
  if (pattern.includes('\0')) return 'pattern contains a NUL character';
  if (/^[/\\]/.test(pattern) || /^[A-Za-z]:/.test(pattern) || /^~(?:[/\\]|$)/.test(pattern)) {
    return 'pattern is an absolute path; patterns are workspace-relative';
  }
  if (pattern.split(/[/\\]/).includes('..')) return "pattern contains a '..' segment";
  return undefined;
}

/** Validate a list of user patterns; problems are reported with their index. */
export function validateFilePatterns(patterns: unknown): string[] {
  if (!Array.isArray(patterns)) return ['patterns must be an array of strings'];
  const problems: string[] = [];
  patterns.forEach((p, i) => {
    const why = validateFilePattern(p);
    if (why) problems.push(`pattern ${i} (${JSON.stringify(p)}): ${why}`);
  });
  return problems;
}

/**
 * Workspace-relative path as matched: '/' separators, `.` `..` and empty segments resolved; a `..`
 * above the root is dropped (such a path is outside the workspace and refused elsewhere; here it is
 * judged by what remains, so `../.git/config` is still sensitive).
 */
export function normalizeRelativePath(relPath: string): string {
  const out: string[] = [];
  for (const raw of relPath.normalize('NFC').replaceAll('\\', '/').split('/')) {
    // Windows drops trailing dots and spaces (`.git.` is `.git` there), and a stray space is easy to
    // add: names are judged without them. A name of only dots and spaces stays as it is, so
    // `.. ` (a real directory on Linux) never turns into `..`.
    const segment = /[^.\s]/.test(raw) ? raw.trim().replace(/[.\s]+$/, '') : raw;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop(); // clamped at the root: `../x` is matched as `x`
    else out.push(segment);
  }
  return out.join('/');
}

type Matcher = { pattern: string; match: (path: string) => boolean };

function compile(pattern: string): Matcher {
  let glob = pattern.normalize('NFC').replaceAll('\\', '/');
  while (glob.startsWith('./')) glob = glob.slice(2);
  if (glob.endsWith('/')) glob += '**';
  const floating = glob.startsWith('**/') ? glob : `**/${glob}`;
  const options = { dot: true, nocase: true };
  const main = picomatch(floating, options);
  // `dir/**` also names the directory itself (picomatch does so already; kept explicit).
  const dir = floating.endsWith('/**') ? picomatch(floating.slice(0, -3), options) : undefined;
  return { pattern, match: (path) => main(path) || (dir !== undefined && dir(path)) };
}

function compileAll(defaults: readonly string[], extra: string[] | undefined, what: string): Matcher[] {
  const problems = validateFilePatterns(extra ?? []);
  if (problems.length > 0) throw new Error(`invalid ${what} patterns: ${problems.join('; ')}`);
  const seen = new Set<string>();
  const matchers: Matcher[] = [];
  for (const p of [...defaults, ...(extra ?? [])]) {
    if (seen.has(p)) continue;
    seen.add(p);
    matchers.push(compile(p));
  }
  return matchers;
}

function verdict(matchers: Matcher[], relPath: string): string | undefined {
  const path = normalizeRelativePath(relPath);
  if (path === '') return undefined; // the workspace root itself
  for (const m of matchers) if (m.match(path)) return m.pattern;
  return undefined;
}

/**
 * Build the policy. User patterns are validated (validateFilePattern); an invalid one throws, so a
 * configuration mistake is not silently ignored.
 */
export function createFilePolicy(options: FilePolicyOptions = {}): FilePolicy {
  const sensitive = compileAll(DEFAULT_SENSITIVE_PATTERNS, options.sensitivePatterns, 'sensitive');
  const protectedOnes = compileAll(DEFAULT_PROTECTED_PATTERNS, options.protectedPatterns, 'protected');
  return {
    isSensitive: (relPath) => verdict(sensitive, relPath),
    isProtected: (relPath) => verdict(protectedOnes, relPath),
  };
}
