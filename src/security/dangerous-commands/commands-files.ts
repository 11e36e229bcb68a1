/**
 * Checks of commands that delete, overwrite or change the permissions of files: `rm`/`unlink`,
 * `chmod`, `cp`/`mv`/`ln`/`install`/`rsync`, `sed -i`/`perl -i`, and writes by redirection or `tee`
 * (outside the workspace, onto a device, into a protected path).
 */
import type { Redirection } from 'unbash';
import type { Ctx } from './context.js';
import { getopt, resolveLong, type OptSpec } from './options.js';
import { classifyPath, isHomeDotfile, normalizeAbsolute, normalizeRelative, under } from './paths.js';
import { wordToArgs, type Arg } from './words.js';

const RM_LONG = [
  'recursive',
  'force',
  'dir',
  'interactive',
  'one-file-system',
  'no-preserve-root',
  'preserve-root',
  'verbose',
  'help',
  'version',
];

export function checkRm(rest: Arg[], ctx: Ctx, text: string): void {
  const o = getopt(rest, { long: RM_LONG });
  if (o.short.has('r') || o.short.has('R') || o.long.has('recursive')) {
    ctx.shared.out.add('rm-recursive', text);
    return;
  }
  for (const a of o.operands) checkRmOperand(a, ctx, text);
}

export function checkRmOperand(a: Arg, ctx: Ctx, text: string): void {
  const out = ctx.shared.out;
  if (a.unquotedExpansion) out.add('rm-unknown-args', text);
  if (/^(\.\/)?\.?\*$/.test(a.value)) out.add('rm-wildcard', text);
  const c = classifyPath(a, ctx);
  if (c === 'home' || c === 'outside' || c === 'system' || c === 'device' || c === 'safe-device') out.add('rm-outside-workspace', text);
}

export function checkChmod(rest: Arg[], ctx: Ctx, text: string): void {
  const out = ctx.shared.out;
  let recursive = false;
  let mode: string | undefined;
  let reference = false;
  let endOfOptions = false;
  for (const a of rest) {
    const v = a.value;
    if (!endOfOptions && v === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && v.startsWith('--')) {
      const names = resolveLong(v.slice(2).split('=')[0] as string, [
        'recursive',
        'reference',
        'changes',
        'silent',
        'quiet',
        'verbose',
        'preserve-root',
        'no-preserve-root',
        'help',
        'version',
      ]);
      if (names.includes('recursive')) recursive = true;
      if (names.includes('reference')) reference = true;
      continue;
    }
    // `-R`, `-Rv`, `-cfv`: options; `-w`, `-x`, `-rwx`: a mode.
    if (!endOfOptions && /^-[Rcfv]+$/.test(v)) {
      if (v.includes('R')) recursive = true;
      continue;
    }
    if (mode === undefined && !reference) mode = v;
  }
  if (recursive) out.add('permissions-recursive', text);
  if (mode === undefined) return;
  if (/^[0-7]{1,4}$/.test(mode)) {
    const digits = mode.padStart(4, '0');
    const others = Number(digits[3]);
    const special = Number(digits[0]);
    if (others & 2) out.add('world-writable', text);
    if (special & 6) out.add('setuid', text);
    return;
  }
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)((?:[-+=][rwxXstugo]*)+)$/.exec(clause);
    if (!m) continue;
    const who = m[1] as string;
    for (const op of (m[2] as string).match(/[-+=][rwxXstugo]*/g) ?? []) {
      if (op[0] === '-') continue;
      const perms = op.slice(1);
      if ((who.includes('a') || who.includes('o')) && perms.includes('w')) out.add('world-writable', text);
      if (perms.includes('s') && (who === '' || who.includes('u') || who.includes('g') || who.includes('a'))) out.add('setuid', text);
    }
  }
}

export function checkCopyMove(name: string, rest: Arg[], ctx: Ctx, text: string): void {
  const out = ctx.shared.out;
  const spec: OptSpec =
    name === 'install'
      ? { shortArg: 'tSmogZ', longArg: ['target-directory', 'suffix', 'mode', 'owner', 'group', 'strip-program'] }
      : name === 'rsync'
        ? {
            shortArg: 'eBfMT',
            longArg: [
              'rsh',
              'rsync-path',
              'filter',
              'exclude',
              'include',
              'exclude-from',
              'include-from',
              'files-from',
              'temp-dir',
              'partial-dir',
              'compare-dest',
              'copy-dest',
              'link-dest',
              'log-file',
              'password-file',
              'chmod',
              'chown',
              'usermap',
              'groupmap',
              'suffix',
              'backup-dir',
              'max-size',
              'min-size',
              'timeout',
              'contimeout',
              'port',
              'sockopts',
              'out-format',
              'bwlimit',
            ],
          }
        : { shortArg: 'tS', longArg: ['target-directory', 'suffix', 'backup', 'reflink', 'sparse', 'preserve', 'no-preserve', 'context'] };
  const o = getopt(rest, spec);
  // Destination: -t DIR / --target-directory=DIR, else the last operand.
  let dest: Arg | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as Arg;
    if (a.value === '-t' || a.value === '--target-directory') dest = rest[i + 1];
    else if (a.value.startsWith('--target-directory=')) dest = { ...a, value: a.value.slice('--target-directory='.length) };
    else if (/^-t./.test(a.value) && name !== 'rsync') dest = { ...a, value: a.value.slice(2) };
  }
  const operands = o.operands;
  if (!dest && operands.length >= 2) dest = operands[operands.length - 1];
  if (dest) {
    const c = classifyPath(dest, ctx);
    checkProtectedTarget(dest, ctx, text);
    if (c === 'system' || isHomeDotfile(dest)) out.add('system-overwrite', text);
    if (c === 'device' || (c === 'safe-device' && name === 'mv')) out.add(c === 'device' ? 'write-device' : 'system-overwrite', text);
  }
  if (name === 'mv') {
    for (const a of operands) {
      if (a === dest) continue;
      const c = classifyPath(a, ctx);
      if (c === 'system' || c === 'device' || c === 'safe-device' || isHomeDotfile(a) || /^(~|\$HOME|\$\{HOME\})\/?$/.test(a.value))
        out.add('system-overwrite', text);
    }
  }
}

/** `sed -i` / `perl -i` rewrite their file operands: writes like any other. */
export function checkInPlaceEdit(name: string, rest: Arg[], ctx: Ctx, text: string): void {
  const sed = name === 'sed';
  const o = getopt(rest, sed ? { shortArg: 'efl', longArg: ['expression', 'file', 'line-length'] } : { shortArg: 'eEIMmx' });
  const inPlace = o.short.has('i') || rest.some((a) => /^--in-place(=|$)/.test(a.value) || /^-[^-]*i/.test(a.value));
  if (!inPlace) return;
  // The script is the first operand unless -e/-f (sed) or -e/-E (perl) gave it.
  const scriptGiven = rest.some(
    (a) => /^-[^-]*[ef]/.test(a.value) || a.value === '--expression' || a.value === '--file' || /^--(expression|file)=/.test(a.value),
  );
  const files = scriptGiven ? o.operands : o.operands.slice(1);
  for (const a of files) checkProtectedTarget(a, ctx, text);
}

/** Options whose value is a file the command writes: letters, letters that take a value, long names. */
interface OutputOptions {
  readonly short: string;
  readonly shortArg: string;
  readonly long: readonly string[];
}

const OUTPUT_OPTIONS: Readonly<Record<string, OutputOptions>> = {
  curl: {
    short: 'oDc',
    shortArg: 'AbcCdDeEFHKmoPQrtTuUwxXyYz',
    long: ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'libcurl'],
  },
  wget: { short: 'OoaP', shortArg: 'OoaPiteTwUQlARDXIB', long: ['output-document', 'output-file', 'append-output', 'directory-prefix'] },
  sort: { short: 'o', shortArg: 'kotST', long: ['output'] },
};
const DEFAULT_OUTPUT_OPTIONS: OutputOptions = { short: 'oO', shortArg: 'oO', long: ['output', 'output-document'] };

/** The files a command writes through its options (`curl -sLo F`, `wget -O F`, `sort -o F`), `-` (stdout) left out. */
export function optionOutputs(name: string, rest: readonly Arg[]): Arg[] {
  const spec = OUTPUT_OPTIONS[name] ?? DEFAULT_OUTPUT_OPTIONS;
  const found: Arg[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as Arg;
    const v = a.value;
    if (v === '--') break;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const long = v.slice(2, eq < 0 ? undefined : eq);
      if (!spec.long.includes(long)) continue;
      const value = eq < 0 ? rest[++i] : { ...a, value: v.slice(eq + 1) };
      if (value) found.push(value);
    } else if (/^-[^-]/.test(v)) {
      for (let j = 1; j < v.length; j++) {
        const c = v[j] as string;
        if (!spec.shortArg.includes(c)) continue;
        const value = j + 1 < v.length ? { ...a, value: v.slice(j + 1) } : rest[++i];
        if (value && spec.short.includes(c)) found.push(value);
        break;
      }
    }
  }
  return found.filter((a) => a.value !== '-');
}

export const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

export function checkRedirects(redirects: readonly Redirection[], text: string, ctx: Ctx): void {
  for (const r of redirects) {
    if (r.type !== 'Redirect' || !r.target) continue;
    const isWrite = WRITE_OPS.has(r.operator) || (r.operator === '>&' && !/^(\d+-?|-)$/.test(r.target.value));
    if (!isWrite) continue;
    const [a] = wordToArgs(r.target);
    if (a) checkWriteTarget(a, ctx, text);
  }
}

export function checkWriteTarget(a: Arg, ctx: Ctx, text: string): void {
  const c = classifyPath(a, ctx);
  if (c === 'device') ctx.shared.out.add('write-device', text);
  else if (c === 'home' || c === 'outside' || c === 'system') ctx.shared.out.add('write-outside-workspace', text);
  checkProtectedTarget(a, ctx, text);
}

/**
 * A write into a protected workspace path: the target itself, or for a target known only in part
 * (`.git/hooks/$NAME`, `.theia/*.json`), the directory its literal beginning names.
 */
function checkProtectedTarget(a: Arg, ctx: Ctx, text: string): void {
  let v = a.value;
  if (!a.literal) {
    const m = /[$`*?[]/.exec(v);
    if (m) v = `${v.slice(0, m.index)}_`;
  }
  let relative: string | undefined;
  if (v.startsWith('/')) {
    const abs = normalizeAbsolute(v);
    const cwd = ctx.shared.cwd;
    if (!cwd || !under(abs, cwd) || abs === cwd) return;
    relative = abs.slice(cwd === '/' ? 1 : cwd.length + 1);
  } else {
    // After a `cd` that may have left the workspace, the path is judged as written (fail closed).
    relative = normalizeRelative(`${ctx.shared.cwdLeft ? '' : ctx.shared.workspaceCwd}/${v}`);
  }
  if (relative && ctx.shared.isProtected(relative)) ctx.shared.out.add('write-protected-path', text);
}
