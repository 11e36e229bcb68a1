/**
 * Dangerous shell command detection for `openspace.terminal.send` (REQ NFR-3.6.3, TECHSPEC §17.3).
 *
 * The text an agent wants to type into a terminal is parsed with a real Bash parser (`unbash`: a
 * typed, zero-dependency, synchronous TypeScript parser; browser-safe, no WASM, no Node built-ins)
 * and every command in the tree is checked: pipelines, lists (`;` `&&` `||` newlines), subshells,
 * groups, command and process substitutions (also inside quotes, parameter expansions, arithmetic,
 * here-documents), function bodies and every compound command. Wrappers are peeled (`sudo`, `env`,
 * `command`, `exec`, `nohup`, `time`, `nice`, `timeout`, `xargs`, `busybox`, `find -exec`, …),
 * option clusters are normalised (`-rf` = `-fr` = `-r -f` = `--recursive --force` = `--rec --f`),
 * brace expansion is applied (`{rm,-rf,/}`), and code carried in strings is parsed and checked
 * in turn (`sh -c`, `bash -c`, `eval`, `su -c`, `env -S`, `ssh host CMD`, `watch`, `alias`,
 * `trap`, `PROMPT_COMMAND=`, `echo … | sh`, here-documents and here-strings fed to a shell).
 *
 * It fails CLOSED: text that does not parse, is incomplete (a trailing `\`, an unterminated
 * here-document), contains terminal control characters, is nested too deeply, or runs a command
 * whose name is only known at run time (`$(echo rm) -rf /`, `$CMD`, `/bin/r?`) is reported as
 * dangerous. See `src/security/corpus/README.md` for the rules table and the decisions behind it.
 *
 * The rule list is data (`DANGER_RULES`); the matching logic for each rule lives below.
 */
import { forEachChild, parse } from 'unbash';
import { createFilePolicy } from './file-policy.js';
import type {
  Command,
  Function as ShFunction,
  Pipeline,
  Redirection,
  SyntaxNode,
  Word,
  WordPart,
} from 'unbash';

// ---------------------------------------------------------------------------------------------
// Rules (data)
// ---------------------------------------------------------------------------------------------

export interface DangerRule {
  /** Stable identifier, reported in `DangerReason.rule`. */
  readonly id: string;
  /** What the command does, phrased to follow "Agent wants to run: … — ". */
  readonly why: string;
  /** What the rule matches (for the README and reviewers). */
  readonly matches: string;
}

export const DANGER_RULES = [
  { id: 'parse-error', why: 'could not be parsed as a shell command, so it cannot be checked', matches: 'any syntax error, unterminated quote/substitution/here-document, or trailing line continuation (fail closed)' },
  { id: 'control-characters', why: 'contains terminal control characters that could change what the shell runs', matches: 'C0/C1 control characters other than tab and newline (a carriage return is treated as Enter)' },
  { id: 'unanalyzable', why: 'is too long or too deeply nested to be checked', matches: 'input over the length limit or code nested deeper than the depth limit (fail closed)' },
  { id: 'dynamic-command', why: 'runs a command whose name is only known at run time, so it cannot be checked', matches: 'a command name containing an expansion, substitution or glob: `$(echo rm)`, `$CMD`, `/bin/r?`' },
  { id: 'history-expansion', why: 'uses shell history expansion, which re-runs or splices in an earlier command unseen', matches: '`!!`, `!rm`, `!$`, `^old^new` outside single quotes' },
  { id: 'privilege-escalation', why: 'runs with administrator (root) privileges', matches: '`sudo`, `doas`, `su`, `pkexec`, `run0`, `sudoedit`' },
  { id: 'rm-recursive', why: 'deletes files recursively', matches: '`rm` with -r/-R/--recursive in any spelling or position' },
  { id: 'rm-outside-workspace', why: 'deletes files outside the working directory', matches: '`rm`/`unlink` of `/…` outside the workspace, `~…`, `$HOME…`, `../…`, devices' },
  { id: 'rm-wildcard', why: 'deletes every file in a directory', matches: '`rm` of a bare `*`, `./*` or `.*`' },
  { id: 'rm-unknown-args', why: 'deletes files named by a variable or command output, which could expand to anything (even -rf /)', matches: '`rm` with an unquoted `$VAR`/`$(…)` argument' },
  { id: 'permissions-recursive', why: 'changes ownership or permissions recursively', matches: '`chmod`/`chown`/`chgrp` with -R/--recursive' },
  { id: 'world-writable', why: 'makes files writable by every user', matches: '`chmod` 777/666/…2 (others-write) or a+w/o+w/a+rwx/ugo=rwx' },
  { id: 'setuid', why: 'sets the setuid/setgid bit, letting the file run with its owner\u2019s privileges', matches: '`chmod` u+s/g+s/+s or a 4-digit mode with 4/2/6 in front' },
  { id: 'dd-write', why: 'writes raw data with dd, which can overwrite a disk', matches: '`dd` with `of=`' },
  { id: 'disk-format', why: 'formats, partitions or wipes a disk', matches: '`mkfs*`, `mke2fs`, `mkswap`, `fdisk`, `sfdisk`, `cfdisk`, `gdisk`, `sgdisk`, `parted`, `wipefs`, `blkdiscard`, `diskutil erase*`' },
  { id: 'fork-bomb', why: 'defines a fork bomb that spawns processes until the machine hangs', matches: 'a function that calls itself in a pipeline or in the background (`:(){ :|:& };:`)' },
  { id: 'remote-code', why: 'downloads code from the internet and runs it', matches: '`curl`/`wget`/… piped into a shell or interpreter, `sh <(curl …)`, `bash -c "$(curl …)"`, `eval "$(wget …)"`, `source <(curl …)`, or a file downloaded earlier in the same text and then run (`curl -o i.sh …; sh i.sh`)' },
  { id: 'pipe-to-shell', why: 'runs shell code produced by another command, so what runs cannot be checked', matches: 'anything but a verbatim `echo`/`printf` or `cat FILE` piped into a shell (`base64 -d \| sh`, `echo -e … \| sh`); `sh <(…)`, `source <(…)`, `eval`/`sh -c` of a substitution' },
  { id: 'git-clean-force', why: 'permanently deletes untracked (and ignored) files', matches: '`git clean` with -f and -d/-x/-X (not with -n/--dry-run)' },
  { id: 'git-discard-changes', why: 'throws away uncommitted changes for good', matches: '`git reset --hard` (also abbreviated `--har`), `git checkout -f`, `git checkout [--] .`, `git restore .` (working tree), `git stash clear`' },
  { id: 'git-push-force', why: 'overwrites history on the remote', matches: '`git push` with -f/--force/--force-with-lease/--force-if-includes/--mirror or a `+refspec`' },
  { id: 'find-delete', why: 'deletes every file that find matches', matches: '`find … -delete`, `find … -exec/-execdir/-ok rm|unlink|shred …`, `fd … -x/-X rm …`' },
  { id: 'power', why: 'shuts down or restarts the machine', matches: '`shutdown`, `reboot`, `halt`, `poweroff`, `init 0|6`, `telinit 0|6`, `systemctl poweroff|reboot|halt|kexec|suspend|hibernate`' },
  { id: 'kill-all', why: 'kills many processes at once', matches: '`kill … -1` (every process), `killall`, `killall5`, `pkill`' },
  { id: 'write-device', why: 'writes directly to a disk or memory device', matches: 'redirection, `tee`, `dd of=`, `cp`/`mv` onto `/dev/*` other than null/zero/tty/stdout/stderr/fd/pts' },
  { id: 'write-outside-workspace', why: 'writes to a file outside the working directory (such as a dotfile or system file)', matches: 'redirection (`>` `>>` `>|` `&>` `&>>` `<>` `>&file`) or `tee` onto `~/…`, `$HOME/…`, `../…`, absolute paths outside the workspace and /tmp' },
  { id: 'write-protected-path', why: 'writes into a protected path (.git, .theia, .openspace, node_modules or a protected pattern), which agents may not change', matches: 'redirection, `tee`, the destination of `cp`/`mv`/`ln`/`install`/`rsync`, or a file edited in place by `sed -i`/`perl -i`, inside `.git/`, `.theia/`, `.openspace/`, `node_modules/` or a protected file pattern (the file tools refuse the same paths with PROTECTED_PATH)' },
  { id: 'truncate-shred', why: 'destroys file contents', matches: '`truncate` or `shred` with a file operand' },
  { id: 'system-overwrite', why: 'moves or overwrites system files', matches: '`mv`/`cp`/`ln`/`install`/`rsync` with a destination in /, /etc, /usr, /bin, … or a home dotfile; `mv` of a system directory or of `~`' },
  { id: 'history-clear', why: 'erases or disables the shell history, hiding what was run', matches: '`history -c`, `unset HISTFILE`, `HISTFILE=…`, `HISTSIZE=0`, `set +o history`' },
  { id: 'crontab-remove', why: 'deletes all scheduled cron jobs', matches: '`crontab -r`' },
] as const satisfies readonly DangerRule[];

export type RuleId = (typeof DANGER_RULES)[number]['id'];

const RULE_WHY: ReadonlyMap<string, string> = new Map(DANGER_RULES.map((r) => [r.id, r.why]));

export interface DangerReason {
  /** The command (or pipeline) the reason is about, as written (inner payload text for `sh -c` etc.). */
  command: string;
  rule: RuleId;
  /** Human-readable, for "Agent wants to run: … — <why>". */
  why: string;
}

export interface CheckResult {
  dangerous: boolean;
  reasons: DangerReason[];
  /** Set when the text (or a payload inside it) did not parse; the result is then dangerous. */
  parseError?: string;
}

export interface CheckOptions {
  /**
   * Absolute working directory of the terminal (the workspace root). Absolute paths under it count
   * as inside the workspace. Without it every absolute path outside /tmp and /var/tmp is outside.
   */
  cwd?: string;
  /** The terminal's working directory relative to the workspace root ("" for the root, the default). */
  workspaceCwd?: string;
  /**
   * Whether agents may not write a workspace-relative path: the pattern that protects it, or
   * undefined. Default: the built-in protected paths (.git, node_modules, .theia, .openspace).
   */
  isProtected?: (workspacePath: string) => string | undefined;
}

const BUILT_IN_POLICY = createFilePolicy();

/** Longest text that is analysed; longer text fails closed. */
export const MAX_COMMAND_LENGTH = 64 * 1024;
/** Deepest nesting of code-in-strings (`sh -c 'eval "…"'`) that is analysed; deeper fails closed. */
export const MAX_PAYLOAD_DEPTH = 12;
/** Brace expansion is applied up to this many words; beyond that the word counts as non-literal. */
const MAX_BRACE_WORDS = 256;

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/** Synchronous check: `unbash` is a synchronous parser, so this is the primary entry point. */
export function checkCommandSync(text: string, options: CheckOptions = {}): CheckResult {
  const out = new Collector();
  try {
    analyzeText(text, options, out);
  } catch (err) {
    // An internal failure must never let a command through.
    out.parseError(`internal error while checking: ${err instanceof Error ? err.message : String(err)}`, text);
  }
  return out.result();
}

/** Async form (kept so a WASM/worker parser could be swapped in without changing callers). */
export async function checkCommand(text: string, options: CheckOptions = {}): Promise<CheckResult> {
  return checkCommandSync(text, options);
}

/** The confirmation line: `Agent wants to run: rm -rf / — deletes files recursively`. */
export function formatConfirmation(text: string, result: CheckResult, maxLength = 200): string {
  let shown = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  if (shown.length > maxLength) shown = `${shown.slice(0, maxLength - 1)}…`;
  const whys = [...new Set(result.reasons.map((r) => r.why))];
  return whys.length ? `Agent wants to run: ${shown} — ${whys.join('; ')}` : `Agent wants to run: ${shown}`;
}

// ---------------------------------------------------------------------------------------------
// Result collection
// ---------------------------------------------------------------------------------------------

class Collector {
  private readonly reasons: DangerReason[] = [];
  private readonly seen = new Set<string>();
  private firstParseError: string | undefined;

  add(rule: RuleId, command: string): void {
    const cmd = command.trim();
    const key = `${rule}\u0000${cmd}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.reasons.push({ command: cmd, rule, why: RULE_WHY.get(rule) ?? rule });
  }

  parseError(message: string, command: string): void {
    this.firstParseError ??= message;
    this.add('parse-error', command);
  }

  result(): CheckResult {
    const r: CheckResult = { dangerous: this.reasons.length > 0, reasons: [...this.reasons] };
    if (this.firstParseError !== undefined) r.parseError = this.firstParseError;
    return r;
  }
}

interface Shared {
  readonly out: Collector;
  readonly cwd: string | undefined;
  readonly workspaceCwd: string;
  readonly isProtected: (workspacePath: string) => string | undefined;
  /** Set once a `cd`/`pushd` may have left the workspace: relative paths then count as outside. */
  cwdLeft: boolean;
  /** Files written by a downloader earlier in the text (`curl -o x.sh …`), to catch `sh x.sh` later. */
  readonly downloaded: Set<string>;
}

interface Ctx {
  /** The string that node positions index (the top-level text, a payload, or a backtick script's decoded source). */
  readonly source: string;
  /** 0 for the text typed at the prompt; 1+ inside `sh -c`/`eval`/… payloads. */
  readonly depth: number;
  readonly shared: Shared;
}

// ---------------------------------------------------------------------------------------------
// Entry: normalise, parse, walk
// ---------------------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

function analyzeText(raw: string, options: CheckOptions, out: Collector): void {
  const shared: Shared = {
    out,
    cwd: options.cwd ? normalizeAbsolute(options.cwd) : undefined,
    workspaceCwd: options.workspaceCwd ?? '',
    isProtected: options.isProtected ?? BUILT_IN_POLICY.isProtected,
    cwdLeft: false,
    downloaded: new Set(),
  };
  if (raw.length > MAX_COMMAND_LENGTH) {
    out.add('unanalyzable', raw.slice(0, 200));
    return;
  }
  // In a terminal a carriage return is Enter: treat it as the newline it is.
  const text = raw.replace(/\r\n?/g, '\n');
  if (CONTROL_CHARS.test(text)) out.add('control-characters', text);
  // A trailing line continuation leaves the shell waiting: whatever is sent next joins this line.
  if (/(^|[^\\])(\\\\)*\\\n?$/.test(text)) out.parseError('incomplete input: ends with a line continuation (\\)', text);
  analyzeScript(text, { source: text, depth: 0, shared });
}

/** Parses `code` and walks it; `ctx.source` must be `code`. */
function analyzeScript(code: string, ctx: Ctx): void {
  if (ctx.depth > MAX_PAYLOAD_DEPTH) {
    ctx.shared.out.add('unanalyzable', code);
    return;
  }
  const script = parse(code);
  walk(script, ctx);
}

/** Analyses a string that a shell will run as code (`sh -c PAYLOAD`, `eval …`). */
function analyzePayload(code: string, ctx: Ctx): void {
  analyzeScript(code, { source: code, depth: ctx.depth + 1, shared: ctx.shared });
}

function slice(ctx: Ctx, node: { pos: number; end: number }): string {
  return ctx.source.slice(node.pos, node.end);
}

function walk(node: SyntaxNode, ctx: Ctx): void {
  let inner = ctx;
  switch (node.type) {
    case 'Script': {
      if (node.source !== undefined) inner = { ...ctx, source: node.source };
      for (const e of node.errors ?? []) {
        ctx.shared.out.parseError(`${e.message} (at ${e.pos})`, inner.source);
      }
      break;
    }
    case 'Command':
      analyzeCommand(node, ctx);
      break;
    case 'Redirected':
      checkRedirects(node.redirects, slice(ctx, node), ctx);
      break;
    case 'Function':
      checkForkBomb(node, ctx);
      break;
    case 'Pipeline':
      checkPipeline(node, ctx);
      break;
    case 'Word':
      if (ctx.depth === 0) checkHistoryExpansion(node, ctx);
      break;
    case 'Assignment':
      checkAssignment(node.name, node.value.type === 'Word' ? node.value : undefined, slice(ctx, node), ctx);
      break;
    case 'HereDoc':
      if (node.closing === undefined) ctx.shared.out.parseError('unterminated here-document', slice(ctx, node));
      break;
    default:
      break;
  }
  forEachChild(node, (child) => walk(child, inner));
}

// ---------------------------------------------------------------------------------------------
// Words → arguments
// ---------------------------------------------------------------------------------------------

interface Arg {
  /** Value after quote removal (expansions left as written, e.g. `$(pwd)/x`). */
  readonly value: string;
  /** No expansion, substitution, glob or brace: the shell will pass exactly `value`. */
  readonly literal: boolean;
  /** Contains an expansion or substitution outside double quotes (subject to word splitting). */
  readonly unquotedExpansion: boolean;
  readonly hasGlob: boolean;
  readonly word: Word | undefined;
  readonly pos: number;
  readonly end: number;
}

interface WordInfo {
  literal: boolean;
  unquotedExpansion: boolean;
  hasGlob: boolean;
  hasBrace: boolean;
}

function wordInfo(word: Word): WordInfo {
  const info: WordInfo = { literal: true, unquotedExpansion: false, hasGlob: false, hasBrace: false };
  for (const p of word.parts ?? []) visitPart(p, info, false);
  return info;
}

function visitPart(p: WordPart, info: WordInfo, quoted: boolean): void {
  switch (p.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      return;
    case 'DoubleQuoted':
    case 'LocaleString':
      for (const c of p.parts) visitPart(c, info, true);
      return;
    case 'BraceExpansion':
      info.hasBrace = true;
      for (const c of p.parts ?? []) visitPart(c, info, quoted);
      return;
    case 'Glob':
    case 'ExtendedGlob':
      info.literal = false;
      info.hasGlob = true;
      return;
    default:
      // SimpleExpansion, ParameterExpansion, CommandExpansion, ArithmeticExpansion, ProcessSubstitution
      info.literal = false;
      if (!quoted) info.unquotedExpansion = true;
  }
}

function wordToArgs(word: Word): Arg[] {
  const info = wordInfo(word);
  const base = { unquotedExpansion: info.unquotedExpansion, hasGlob: info.hasGlob, word, pos: word.pos, end: word.end };
  if (info.hasBrace) {
    const expanded = expandBraces(word.value);
    if (expanded.length > MAX_BRACE_WORDS) return [{ ...base, value: word.value, literal: false }];
    return expanded.map((value) => ({ ...base, value, literal: info.literal }));
  }
  return [{ ...base, value: word.value, literal: info.literal }];
}

/** Arguments per command node: nodes are immutable and pipelines look at each stage several times. */
const argsCache = new WeakMap<Command, Arg[]>();

function commandArgs(cmd: Command): Arg[] {
  const cached = argsCache.get(cmd);
  if (cached) return cached;
  const args: Arg[] = [];
  argsCache.set(cmd, args);
  if (cmd.name) args.push(...wordToArgs(cmd.name));
  for (const a of cmd.args) {
    if (a.type === 'Word') {
      args.push(...wordToArgs(a));
    } else {
      // `export A=1`, `alias x='…'`: keep the assignment as one argument `NAME=value`.
      const valueWord = a.value.type === 'Word' ? a.value : undefined;
      const info = valueWord ? wordInfo(valueWord) : { literal: false, unquotedExpansion: false, hasGlob: false };
      args.push({
        value: `${a.name}${a.append ? '+=' : '='}${valueWord ? valueWord.value : ''}`,
        literal: info.literal,
        unquotedExpansion: info.unquotedExpansion,
        hasGlob: info.hasGlob,
        word: valueWord,
        pos: a.pos,
        end: a.end,
      });
    }
  }
  return args;
}

/** Bash brace expansion of comma lists (`{a,b}`, nested, with prefix/suffix); ranges are left as-is. */
export function expandBraces(value: string): string[] {
  const results: string[] = [];
  const queue = [value];
  while (queue.length) {
    const s = queue.shift() as string;
    if (results.length + queue.length > MAX_BRACE_WORDS) return [...results, s, ...queue];
    const group = findBraceGroup(s);
    if (!group) {
      results.push(s);
      continue;
    }
    const { open, close, commas } = group;
    const pre = s.slice(0, open);
    const post = s.slice(close + 1);
    let start = open + 1;
    for (const c of [...commas, close]) {
      queue.push(pre + s.slice(start, c) + post);
      start = c + 1;
    }
  }
  return results;
}

function findBraceGroup(s: string): { open: number; close: number; commas: number[] } | undefined {
  for (let open = 0; open < s.length; open++) {
    if (s[open] !== '{' || (open > 0 && s[open - 1] === '$')) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open; i < s.length; i++) {
      const ch = s[i];
      if (ch === '{') depth++;
      else if (ch === '}') {
        depth--;
        if (depth === 0) {
          if (commas.length) return { open, close: i, commas };
          break;
        }
      } else if (ch === ',' && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

function basename(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

function argsText(ctx: Ctx, args: readonly Arg[]): string {
  const first = args[0];
  const last = args[args.length - 1];
  if (!first || !last) return '';
  return ctx.source.slice(first.pos, last.end);
}

// ---------------------------------------------------------------------------------------------
// Option parsing
// ---------------------------------------------------------------------------------------------

interface OptSpec {
  /** Short options that take an argument (attached `-uroot` or separate `-u root`). */
  readonly shortArg?: string;
  /** Known long options (for GNU-style unique-prefix abbreviations like `--rec`). */
  readonly long?: readonly string[];
  /** Long options that take an argument (`--user=x` or `--user x`). */
  readonly longArg?: readonly string[];
  /** Stop option parsing at the first operand (POSIX/wrapper style) rather than GNU permutation. */
  readonly stopAtOperand?: boolean;
}

interface Opts {
  readonly short: Set<string>;
  readonly long: Set<string>;
  readonly operands: Arg[];
  /** Index in the input of the first operand when `stopAtOperand` (else args.length). */
  readonly restIndex: number;
}

function resolveLong(name: string, known: readonly string[] | undefined): string[] {
  if (!known || known.includes(name)) return [name];
  const matches = known.filter((k) => k.startsWith(name));
  // Ambiguous abbreviations are rejected by getopt; counting every match is the conservative choice.
  return matches.length ? matches : [name];
}

function getopt(args: readonly Arg[], spec: OptSpec = {}): Opts {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: Arg[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const v = a.value;
    if (v === '--') {
      operands.push(...args.slice(i + 1));
      return { short, long, operands, restIndex: spec.stopAtOperand ? i + 1 : args.length };
    }
    if (v.startsWith('--') && v.length > 2) {
      const eq = v.indexOf('=');
      const name = eq >= 0 ? v.slice(2, eq) : v.slice(2);
      const names = resolveLong(name, spec.long);
      for (const n of names) long.add(n);
      if (eq < 0 && names.some((n) => spec.longArg?.includes(n))) i++;
      continue;
    }
    if (v.startsWith('-') && v.length > 1) {
      for (let j = 1; j < v.length; j++) {
        const c = v[j] as string;
        short.add(c);
        if (spec.shortArg?.includes(c)) {
          if (j === v.length - 1) i++;
          break;
        }
      }
      continue;
    }
    if (spec.stopAtOperand) {
      operands.push(...args.slice(i));
      return { short, long, operands, restIndex: i };
    }
    operands.push(a);
  }
  return { short, long, operands, restIndex: args.length };
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

type PathClass = 'inside' | 'scratch' | 'safe-device' | 'device' | 'home' | 'outside' | 'system' | 'unknown';

const SAFE_DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/ptmx']);
const SAFE_DEVICE_DIRS = ['/dev/fd/', '/dev/pts/', '/dev/shm/'];
const SCRATCH_DIRS = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/tmp', '/var/folders', '/private/var/folders'];
const SYSTEM_DIRS = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc', '/root', '/run', '/sbin', '/snap', '/srv', '/sys', '/usr', '/var', '/System', '/Library', '/Applications', '/private', '/home', '/Users'];

function normalizeAbsolute(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`;
}

/** Normalises a relative path; returns undefined if it climbs above its start (`../x`, `a/../../x`). */
function normalizeRelative(p: string): string | undefined {
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

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);
}

function classifyPath(arg: Arg, ctx: Ctx): PathClass {
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

function isHomeDotfile(arg: Arg): boolean {
  return /^(~|\$HOME|\$\{HOME\})[^/]*\/\./.test(arg.value);
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish', 'rbash', 'tcsh', 'csh']);
const INTERPRETERS = /^(python[0-9.]*|node|nodejs|deno|bun|perl|ruby|php|lua|tclsh|osascript)$/;
const DOWNLOADERS = new Set(['curl', 'wget', 'wget2', 'fetch', 'http', 'https', 'xh', 'aria2c', 'lwp-request', 'lwp-download', 'GET']);
const PRIVILEGED = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'sudoedit']);
const DISK_TOOLS = new Set(['mke2fs', 'mkswap', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'wipefs', 'blkdiscard']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'hybrid-sleep', 'suspend-then-hibernate', 'soft-reboot']);

type Peeled = { kind: 'rest'; rest: Arg[] } | { kind: 'stop' } | { kind: 'none' };

const ASSIGNMENT_ARG = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

function skipAssignments(args: Arg[], from: number): number {
  let i = from;
  while (i < args.length && ASSIGNMENT_ARG.test((args[i] as Arg).value)) i++;
  return i;
}

/**
 * Removes one wrapper: `sudo -u x CMD` → `CMD`. Pure (reports nothing); `analyzeArgv` reports the
 * wrapper's own danger. Wrappers that carry code in a string (`env -S`, `watch`, `ssh`, `su -c`) are
 * handled in `analyzeArgv`.
 */
function peelWrapper(name: string, args: Arg[]): Peeled {
  const rest = args.slice(1);
  const after = (spec: OptSpec): Arg[] => rest.slice(getopt(rest, { ...spec, stopAtOperand: true }).restIndex);
  switch (name) {
    case 'sudo': {
      const r = after({ shortArg: 'ugCDhprtTU', longArg: ['user', 'group', 'close-from', 'chdir', 'host', 'prompt', 'role', 'type', 'command-timeout', 'other-user'] });
      return { kind: 'rest', rest: r.slice(skipAssignments(r, 0)) };
    }
    case 'doas':
      return { kind: 'rest', rest: after({ shortArg: 'uC' }) };
    case 'pkexec':
    case 'run0':
      return { kind: 'rest', rest: after({ longArg: ['user', 'unit', 'property', 'description', 'slice', 'chdir', 'setenv', 'nice', 'machine', 'background'], shortArg: 'uD' }) };
    case 'env': {
      const r = after({ shortArg: 'uCS', longArg: ['unset', 'chdir', 'split-string'] });
      return { kind: 'rest', rest: r.slice(skipAssignments(r, 0)) };
    }
    case 'command': {
      const o = getopt(rest, { stopAtOperand: true });
      if (o.short.has('v') || o.short.has('V')) return { kind: 'stop' };
      return { kind: 'rest', rest: rest.slice(o.restIndex) };
    }
    case 'builtin':
    case 'nohup':
    case 'unbuffer':
    case 'setsid':
      return { kind: 'rest', rest: after({}) };
    case 'exec':
      return { kind: 'rest', rest: after({ shortArg: 'a' }) };
    case 'time':
      return { kind: 'rest', rest: after({ shortArg: 'fo', longArg: ['format', 'output'] }) };
    case 'nice': {
      // `nice -n 5 CMD`, `nice -5 CMD`, `nice --adjustment=5 CMD`
      return { kind: 'rest', rest: after({ shortArg: 'n', longArg: ['adjustment'] }) };
    }
    case 'ionice': {
      const o = getopt(rest, { shortArg: 'cnpPu', longArg: ['class', 'classdata', 'pid', 'pgid', 'uid'], stopAtOperand: true });
      if (o.short.has('p') || o.short.has('P') || o.short.has('u')) return { kind: 'stop' };
      return { kind: 'rest', rest: rest.slice(o.restIndex) };
    }
    case 'timeout': {
      const r = after({ shortArg: 'sk', longArg: ['signal', 'kill-after'] });
      return { kind: 'rest', rest: r.slice(1) }; // drop DURATION
    }
    case 'stdbuf':
      return { kind: 'rest', rest: after({ shortArg: 'ioe', longArg: ['input', 'output', 'error'] }) };
    case 'chroot': {
      const r = after({ longArg: ['userspec', 'groups'] });
      return { kind: 'rest', rest: r.slice(1) }; // drop NEWROOT
    }
    case 'xargs': {
      const r = after({ shortArg: 'IaLnPsdE', longArg: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'] });
      return r.length ? { kind: 'rest', rest: r } : { kind: 'stop' };
    }
    case 'busybox':
    case 'toybox':
      return rest.length && !(rest[0] as Arg).value.startsWith('-') ? { kind: 'rest', rest } : { kind: 'stop' };
    default:
      return { kind: 'none' };
  }
}

/** The command that finally runs once wrappers are peeled (no reporting). */
function effectiveArgv(args: Arg[]): Arg[] {
  let cur = args;
  for (let n = 0; n < 32 && cur.length; n++) {
    const head = cur[0] as Arg;
    if (!head.literal) return cur;
    const p = peelWrapper(basename(head.value), cur);
    if (p.kind === 'none') return cur;
    if (p.kind === 'stop') return [];
    cur = p.rest;
  }
  return cur;
}

function effectiveName(args: Arg[]): string | undefined {
  const eff = effectiveArgv(args);
  const head = eff[0];
  return head && head.literal ? basename(head.value) : undefined;
}

function analyzeCommand(cmd: Command, ctx: Ctx): void {
  checkRedirects(cmd.redirects, slice(ctx, cmd), ctx);
  const args = commandArgs(cmd);
  if (args.length) analyzeArgv(args, ctx, cmd);
}

/**
 * Checks one simple command given as arguments. `cmd` is the syntax node the arguments come from
 * (for its here-documents); it is undefined for argument lists taken out of another command
 * (`find -exec …`).
 */
function analyzeArgv(args: Arg[], ctx: Ctx, cmd: Command | undefined, hops = 0): void {
  const head = args[0];
  if (!head) return;
  const out = ctx.shared.out;
  const text = argsText(ctx, args);
  if (hops > 32) {
    out.add('unanalyzable', text);
    return;
  }
  if (!head.literal) {
    out.add('dynamic-command', text);
    // The name may expand to nothing (`$(true) rm -rf /`): check the rest as a command too.
    analyzeArgv(args.slice(1), ctx, cmd, hops + 1);
    return;
  }
  const name = basename(head.value);
  if (ctx.depth === 0 && /^\^.*\^/.test(head.value)) out.add('history-expansion', text);
  const rest = args.slice(1);
  if (head.value.includes('/')) checkRunsDownloaded(head, ctx, text);
  if (DOWNLOADERS.has(name)) recordDownload(rest, cmd, ctx);
  if (INTERPRETERS.test(name)) {
    const script = rest.find((a) => !a.value.startsWith('-'));
    if (script) checkRunsDownloaded(script, ctx, text);
  }

  if (PRIVILEGED.has(name)) out.add('privilege-escalation', text);

  // Wrappers whose payload is a string of shell code.
  if (name === 'env') {
    const o = getopt(rest, { shortArg: 'uCS', longArg: ['unset', 'chdir', 'split-string'], long: ['ignore-environment', 'null', 'unset', 'chdir', 'split-string', 'debug', 'help', 'version'], stopAtOperand: true });
    const sIndex = rest.findIndex((a) => a.value === '-S' || a.value.startsWith('-S') || a.value.startsWith('--split-string') || /^-[^-]*S/.test(a.value));
    if ((o.short.has('S') || o.long.has('split-string')) && sIndex >= 0) {
      const s = rest[sIndex] as Arg;
      const inline = s.value.startsWith('--split-string') ? s.value.slice('--split-string='.length) : s.value.replace(/^-[^S]*S/, '');
      const payloadParts = [inline, ...rest.slice(sIndex + 1).map((a) => a.value)].filter((p) => p !== '');
      checkCodeArgs(rest.slice(sIndex), ctx, text);
      analyzePayload(payloadParts.join(' '), ctx);
      return;
    }
  }
  if (name === 'su' || name === 'runuser') {
    const o = getopt(rest, { shortArg: 'cgGswu', longArg: ['command', 'group', 'supp-group', 'shell', 'whitelist-environment', 'user', 'session-command'] });
    const idx = rest.findIndex((a) => /^-[a-zA-Z]*c$/.test(a.value) || a.value === '--command' || a.value === '--session-command');
    const inlineLong = rest.find((a) => a.value.startsWith('--command=') || a.value.startsWith('--session-command='));
    const payload = inlineLong ? inlineLong.value.slice(inlineLong.value.indexOf('=') + 1) : idx >= 0 ? rest[idx + 1]?.value : undefined;
    if ((o.short.has('c') || o.long.has('command') || o.long.has('session-command')) && payload !== undefined) {
      checkCodeArgs(rest, ctx, text);
      analyzePayload(payload, ctx);
    }
    return;
  }
  if (name === 'watch') {
    const o = getopt(rest, { shortArg: 'nq', longArg: ['interval', 'equexit'], stopAtOperand: true });
    const cmdArgs = rest.slice(o.restIndex);
    if (!cmdArgs.length) return;
    if (o.short.has('x') || o.long.has('exec')) analyzeArgv(cmdArgs, ctx, undefined, hops + 1);
    else {
      checkCodeArgs(cmdArgs, ctx, text);
      analyzePayload(cmdArgs.map((a) => a.value).join(' '), ctx);
    }
    return;
  }
  if (name === 'ssh') {
    const o = getopt(rest, { shortArg: 'BbcDEeFIiJLlmOoPpQRSWw', stopAtOperand: true });
    const remote = rest.slice(o.restIndex + 1); // after HOST
    if (remote.length) {
      checkCodeArgs(remote, ctx, text);
      analyzePayload(remote.map((a) => a.value).join(' '), ctx);
    }
    return;
  }

  const peeled = peelWrapper(name, args);
  if (peeled.kind === 'rest') {
    if ((name === 'sudo' || name === 'doas') && !peeled.rest.length) return; // `sudo -i`, `sudo -s`: already reported
    analyzeArgv(peeled.rest, ctx, cmd, hops + 1);
    return;
  }
  if (peeled.kind === 'stop') return;

  if (SHELLS.has(name)) return analyzeShell(rest, ctx, cmd, text);

  switch (name) {
    case 'eval': {
      checkCodeArgs(rest, ctx, text);
      analyzePayload(rest.map((a) => a.value).join(' '), ctx);
      return;
    }
    case 'source':
    case '.': {
      const file = rest[0];
      if (file) checkScriptOperand(file, ctx, text);
      if (file) checkRunsDownloaded(file, ctx, text);
      if (file && /^\/dev\/(stdin|fd\/0)$/.test(file.value)) checkStdinScript(cmd, ctx, text);
      return;
    }
    case 'alias': {
      for (const a of rest) {
        const eq = a.value.indexOf('=');
        if (eq > 0) analyzePayload(a.value.slice(eq + 1), ctx);
      }
      return;
    }
    case 'trap': {
      const o = getopt(rest, { stopAtOperand: true });
      const action = o.operands[0];
      if (action && action.value !== '-' && o.operands.length > 1) analyzePayload(action.value, ctx);
      return;
    }
    case 'cd':
    case 'pushd': {
      const o = getopt(rest, { stopAtOperand: true });
      const target = o.operands[0];
      if (!target || target.value === '-') ctx.shared.cwdLeft = true;
      else {
        const c = classifyPath(target, ctx);
        if (c !== 'inside' && c !== 'scratch') ctx.shared.cwdLeft = true;
      }
      return;
    }
    case 'rm':
      return checkRm(rest, ctx, text);
    case 'unlink':
      for (const a of rest) checkRmOperand(a, ctx, text);
      return;
    case 'find':
      return checkFind(rest, ctx, text, hops);
    case 'fd':
    case 'fdfind': {
      const i = rest.findIndex((a) => /^(-x|-X|--exec|--exec-batch)$/.test(a.value));
      if (i < 0) return;
      let sub = rest.slice(i + 1);
      const end = sub.findIndex((a) => a.value === ';');
      if (end >= 0) sub = sub.slice(0, end);
      const subName = effectiveName(sub);
      if (subName === 'rm' || subName === 'unlink' || subName === 'shred') out.add('find-delete', text);
      analyzeArgv(sub, ctx, undefined, hops + 1);
      return;
    }
    case 'parallel': {
      // GNU parallel runs its command through a shell: `parallel [options] CMD ::: ARGS`.
      const end = rest.findIndex((a) => a.value === ':::' || a.value === '::::' || a.value === ':::+');
      const head = end >= 0 ? rest.slice(0, end) : rest;
      let start = 0;
      while (start < head.length && (head[start] as Arg).value.startsWith('-')) {
        start += /^(-j|-P|-S|-n|-N|-L|-l|-I|-E|-d|-a|--jobs|--sshlogin|--max-args|--delimiter|--arg-file)$/.test((head[start] as Arg).value) ? 2 : 1;
      }
      const cmdArgs = head.slice(start);
      if (cmdArgs.length) {
        checkCodeArgs(cmdArgs, ctx, text);
        analyzePayload(cmdArgs.map((a) => a.value).join(' '), ctx);
      }
      return;
    }
    case 'chmod':
      return checkChmod(rest, ctx, text);
    case 'chown':
    case 'chgrp': {
      const o = getopt(rest, { long: ['recursive', 'reference', 'from', 'changes', 'silent', 'quiet', 'verbose', 'dereference', 'no-dereference', 'preserve-root', 'no-preserve-root', 'help', 'version'] });
      if (o.short.has('R') || o.long.has('recursive')) ctx.shared.out.add('permissions-recursive', text);
      return;
    }
    case 'dd': {
      for (const a of rest) {
        if (!a.value.startsWith('of=')) continue;
        out.add('dd-write', text);
        const target: Arg = { ...a, value: a.value.slice(3) };
        if (classifyPath(target, ctx) === 'device') out.add('write-device', text);
      }
      return;
    }
    case 'diskutil':
      if (rest.some((a) => /^(erase|zero|randomdisk|partitiondisk|secureerase|reformat)/i.test(a.value))) out.add('disk-format', text);
      return;
    case 'init':
    case 'telinit':
      if (rest.some((a) => a.value === '0' || a.value === '6')) out.add('power', text);
      return;
    case 'systemctl':
      if (rest.some((a) => SYSTEMCTL_POWER.has(a.value))) out.add('power', text);
      return;
    case 'kill':
      return checkKill(rest, ctx, text);
    case 'killall':
    case 'killall5':
    case 'pkill':
      out.add('kill-all', text);
      return;
    case 'git':
      return checkGit(rest, ctx, text);
    case 'truncate':
    case 'shred': {
      const o = getopt(rest, name === 'truncate' ? { shortArg: 'sr', longArg: ['size', 'reference'] } : { shortArg: 'ns', longArg: ['iterations', 'size', 'random-source', 'remove'] });
      if (o.operands.length) out.add('truncate-shred', text);
      return;
    }
    case 'sed':
    case 'perl':
      return checkInPlaceEdit(name, rest, ctx, text);
    case 'tee': {
      const o = getopt(rest, { long: ['append', 'ignore-interrupts', 'output-error'] });
      for (const a of o.operands) checkWriteTarget(a, ctx, text);
      return;
    }
    case 'mv':
    case 'cp':
    case 'ln':
    case 'install':
    case 'rsync':
      return checkCopyMove(name, rest, ctx, text);
    case 'history': {
      const o = getopt(rest);
      if (o.short.has('c')) out.add('history-clear', text);
      return;
    }
    case 'unset':
      if (rest.some((a) => a.value === 'HISTFILE')) out.add('history-clear', text);
      return;
    case 'set':
      for (let i = 0; i + 1 < rest.length; i++) {
        if ((rest[i] as Arg).value === '+o' && (rest[i + 1] as Arg).value === 'history') out.add('history-clear', text);
      }
      return;
    case 'crontab': {
      const o = getopt(rest, { shortArg: 'u' });
      if (o.short.has('r')) out.add('crontab-remove', text);
      return;
    }
    default:
      break;
  }
  if (name.startsWith('mkfs') || DISK_TOOLS.has(name)) out.add('disk-format', text);
  else if (POWER.has(name)) out.add('power', text);
}

// --- code carried in arguments -------------------------------------------------------------

/** True if `node` (a word, script, …) runs a downloader anywhere inside it. */
function runsDownloader(node: SyntaxNode | undefined): boolean {
  if (!node) return false;
  let found = false;
  const visit = (n: SyntaxNode): void => {
    if (found) return;
    if (n.type === 'Command') {
      const name = effectiveName(commandArgs(n));
      if (name && DOWNLOADERS.has(name)) {
        found = true;
        return;
      }
    }
    forEachChild(n, visit);
  };
  visit(node);
  return found;
}

function hasSubstitution(word: Word | undefined): boolean {
  if (!word) return false;
  let found = false;
  const visit = (n: SyntaxNode): void => {
    if (found) return;
    if (n.type === 'CommandExpansion' || n.type === 'ProcessSubstitution') {
      found = true;
      return;
    }
    forEachChild(n, visit);
  };
  visit(word);
  return found;
}

/** For arguments that become code (`eval ARGS`, `sh -c ARG`): code fetched or generated at run time. */
function checkCodeArgs(args: readonly Arg[], ctx: Ctx, text: string): void {
  for (const a of args) {
    if (runsDownloader(a.word)) ctx.shared.out.add('remote-code', text);
    else if (hasSubstitution(a.word)) ctx.shared.out.add('pipe-to-shell', text);
  }
}

/** A script operand of a shell or `source`: `<(curl …)`, `$(…)`. */
function checkScriptOperand(a: Arg, ctx: Ctx, text: string): void {
  if (runsDownloader(a.word)) ctx.shared.out.add('remote-code', text);
  else if (hasSubstitution(a.word)) ctx.shared.out.add('pipe-to-shell', text);
}

/** A shell reading its script from stdin: check here-documents, here-strings and `< <(…)`. */
function checkStdinScript(cmd: Command | undefined, ctx: Ctx, text: string): void {
  if (!cmd) return;
  for (const r of cmd.redirects) {
    if (r.type === 'HereDoc') {
      if (runsDownloader(r.body)) ctx.shared.out.add('remote-code', text);
      analyzePayload(r.body.text, ctx);
    } else if (r.type === 'HereString' && r.target) {
      const [a] = wordToArgs(r.target);
      if (a) checkCodeArgs([a], ctx, text);
      analyzePayload(r.target.value, ctx);
    } else if (r.type === 'Redirect' && r.operator === '<' && r.target) {
      const [a] = wordToArgs(r.target);
      if (a) checkScriptOperand(a, ctx, text);
    }
  }
}

interface ShellArgs {
  /** `-c` given: the first operand is code. */
  readonly code: Arg | undefined;
  readonly hasC: boolean;
  /** Reads its script from stdin (no script operand, or -s, or `-` / /dev/stdin). */
  readonly readsStdin: boolean;
  readonly script: Arg | undefined;
}

function parseShellArgs(rest: readonly Arg[]): ShellArgs {
  let hasC = false;
  let hasS = false;
  let i = 0;
  for (; i < rest.length; i++) {
    const v = (rest[i] as Arg).value;
    if (v === '--' || v === '-') {
      if (v === '--') i++;
      break;
    }
    if (v.startsWith('--')) {
      if (v === '--rcfile' || v === '--init-file') i++;
      if (v === '--command') hasC = true;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(v)) {
      const flags = v.slice(1);
      if (v.startsWith('-') && flags.includes('c')) hasC = true;
      if (v.startsWith('-') && flags.includes('s')) hasS = true;
      // -o OPTION / -O OPTION take the next word
      if (/[oO]$/.test(flags)) i++;
      continue;
    }
    break;
  }
  const first = rest[i];
  if (hasC) return { code: first, hasC, readsStdin: false, script: undefined };
  const readsStdin = hasS || !first || first.value === '-' || /^\/dev\/(stdin|fd\/0)$/.test(first.value);
  return { code: undefined, hasC, readsStdin, script: readsStdin ? undefined : first };
}

function analyzeShell(rest: Arg[], ctx: Ctx, cmd: Command | undefined, text: string): void {
  const sh = parseShellArgs(rest);
  if (sh.hasC) {
    if (sh.code) {
      checkCodeArgs([sh.code], ctx, text);
      analyzePayload(sh.code.value, ctx);
    }
    return;
  }
  if (sh.script) {
    checkScriptOperand(sh.script, ctx, text);
    checkRunsDownloaded(sh.script, ctx, text);
  }
  if (sh.readsStdin) checkStdinScript(cmd, ctx, text);
}

function downloadKey(path: string): string {
  return path.replace(/^(\.\/)+/, '');
}

/** Remembers where `curl -o F`, `wget -O F`, `wget URL` (saves as the URL's last segment) and `curl … > F` write. */
function recordDownload(rest: readonly Arg[], cmd: Command | undefined, ctx: Ctx): void {
  const files = ctx.shared.downloaded;
  for (let i = 0; i < rest.length; i++) {
    const v = (rest[i] as Arg).value;
    const next = rest[i + 1]?.value;
    if ((v === '-o' || v === '-O' || v === '--output' || v === '--output-document') && next && next !== '-') files.add(downloadKey(next));
    else if (/^--(output|output-document)=/.test(v)) files.add(downloadKey(v.slice(v.indexOf('=') + 1)));
    else if (/^-[oO]./.test(v)) files.add(downloadKey(v.slice(2)));
    else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
      const last = basename(v.replace(/[?#].*$/, ''));
      if (last) files.add(last);
    }
  }
  for (const r of cmd?.redirects ?? []) {
    if (r.type === 'Redirect' && r.target && WRITE_OPS.has(r.operator)) files.add(downloadKey(r.target.value));
  }
}

function checkRunsDownloaded(a: Arg, ctx: Ctx, text: string): void {
  if (ctx.shared.downloaded.has(downloadKey(a.value))) ctx.shared.out.add('remote-code', text);
}

/** How a command consumes stdin as a program, if it does. */
function stdinProgramKind(args: Arg[]): 'shell' | 'interpreter' | undefined {
  const eff = effectiveArgv(args);
  const head = eff[0];
  if (!head || !head.literal) return undefined;
  const name = basename(head.value);
  const rest = eff.slice(1);
  if (SHELLS.has(name)) return parseShellArgs(rest).readsStdin ? 'shell' : undefined;
  if (name === 'source' || name === '.') return rest[0] && /^\/dev\/(stdin|fd\/0)$/.test(rest[0].value) ? 'shell' : undefined;
  if (INTERPRETERS.test(name)) {
    // python -c/-m, node -e/-p, perl -e … run their own code; a script operand is a file.
    const codeFlag = rest.some((a) => /^-(c|m|e|E|p|r)$/.test(a.value) || /^--(eval|print|command)/.test(a.value));
    if (codeFlag) return undefined;
    const operand = rest.find((a) => !a.value.startsWith('-') || a.value === '-');
    return !operand || operand.value === '-' ? 'interpreter' : undefined;
  }
  return undefined;
}

function collectCommands(node: SyntaxNode): Command[] {
  const found: Command[] = [];
  const visit = (n: SyntaxNode): void => {
    if (n.type === 'Command') found.push(n);
    if (n.type === 'Function') return;
    forEachChild(n, visit);
  };
  visit(node);
  return found;
}

function checkPipeline(pipe: Pipeline, ctx: Ctx): void {
  const text = slice(ctx, pipe);
  // Each rule is reported once per pipeline (a 5,000-stage pipeline must not cost 5,000 reasons).
  const found = new Set<RuleId>();
  // downloaderUpstream: some stage before the current one runs a downloader (kept linear in the stage count).
  let downloaderUpstream = false;
  for (let i = 1; i < pipe.commands.length; i++) {
    downloaderUpstream ||= runsDownloader(pipe.commands[i - 1]);
    const stage = pipe.commands[i] as SyntaxNode;
    // A compound stage (`… | { sh; }`) counts if any command inside reads a program from stdin.
    const stageCmds = stage.type === 'Command' ? [stage] : collectCommands(stage);
    const kinds = stageCmds.map((c) => stdinProgramKind(commandArgs(c))).filter((k) => k !== undefined);
    if (!kinds.length) continue;
    if (downloaderUpstream) {
      found.add('remote-code');
      continue;
    }
    if (!kinds.includes('shell')) continue;
    const prev = pipe.commands[i - 1] as SyntaxNode;
    if (prev.type !== 'Command' || !prev.name) {
      found.add('pipe-to-shell');
      continue;
    }
    const prevArgs = effectiveArgv(commandArgs(prev));
    const prevName = prevArgs[0]?.literal ? basename(prevArgs[0].value) : undefined;
    const prevRest = prevArgs.slice(1);
    const echoFlags = prevName === 'echo' ? prevRest.findIndex((a) => !/^-[neE]+$/.test(a.value)) : 0;
    const words = prevRest.slice(echoFlags < 0 ? prevRest.length : echoFlags).map((a) => a.value);
    // Only text that reaches the shell verbatim can be checked: no `echo -e`, printf formats or escapes.
    const verbatim =
      prevRest.every((a) => a.literal) &&
      words.every((w) => !w.includes('\\')) &&
      (prevName === 'echo' ? !prevRest.slice(0, Math.max(echoFlags, 0)).some((a) => a.value.includes('e')) : words.length === 1 && !(words[0] as string).includes('%'));
    if ((prevName === 'echo' || prevName === 'printf') && verbatim) {
      analyzePayload(words.join(' '), ctx);
    } else if (prevName === 'cat' && i === 1 && prevRest.every((a) => a.literal)) {
      // `cat file | sh` runs a file like `sh file` does; `cat <<EOF | sh` runs the here-document.
      checkStdinScript(prev, ctx, text);
    } else {
      found.add('pipe-to-shell');
    }
  }
  for (const rule of found) ctx.shared.out.add(rule, text);
}

// --- rm, find -------------------------------------------------------------------------------

const RM_LONG = ['recursive', 'force', 'dir', 'interactive', 'one-file-system', 'no-preserve-root', 'preserve-root', 'verbose', 'help', 'version'];

function checkRm(rest: Arg[], ctx: Ctx, text: string): void {
  const o = getopt(rest, { long: RM_LONG });
  if (o.short.has('r') || o.short.has('R') || o.long.has('recursive')) {
    ctx.shared.out.add('rm-recursive', text);
    return;
  }
  for (const a of o.operands) checkRmOperand(a, ctx, text);
}

function checkRmOperand(a: Arg, ctx: Ctx, text: string): void {
  const out = ctx.shared.out;
  if (a.unquotedExpansion) out.add('rm-unknown-args', text);
  if (/^(\.\/)?\.?\*$/.test(a.value)) out.add('rm-wildcard', text);
  const c = classifyPath(a, ctx);
  if (c === 'home' || c === 'outside' || c === 'system' || c === 'device' || c === 'safe-device') out.add('rm-outside-workspace', text);
}

function checkFind(rest: Arg[], ctx: Ctx, text: string, hops: number): void {
  const out = ctx.shared.out;
  for (let i = 0; i < rest.length; i++) {
    const v = (rest[i] as Arg).value;
    if (v === '-delete') out.add('find-delete', text);
    if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
      let j = i + 1;
      while (j < rest.length && (rest[j] as Arg).value !== ';' && (rest[j] as Arg).value !== '+') j++;
      const sub = rest.slice(i + 1, j);
      const subName = effectiveName(sub);
      if (subName === 'rm' || subName === 'unlink' || subName === 'shred' || subName === 'rmdir') out.add('find-delete', text);
      analyzeArgv(sub, ctx, undefined, hops + 1);
      i = j;
    }
  }
}

// --- chmod, kill, git, cp/mv ----------------------------------------------------------------

function checkChmod(rest: Arg[], ctx: Ctx, text: string): void {
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
      const names = resolveLong(v.slice(2).split('=')[0] as string, ['recursive', 'reference', 'changes', 'silent', 'quiet', 'verbose', 'preserve-root', 'no-preserve-root', 'help', 'version']);
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

function checkKill(rest: Arg[], ctx: Ctx, text: string): void {
  let signalSeen = false;
  let endOfOptions = false;
  for (let i = 0; i < rest.length; i++) {
    const v = (rest[i] as Arg).value;
    if (!endOfOptions && v === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && (v === '-s' || v === '-n' || v === '--signal')) {
      signalSeen = true;
      i++;
      continue;
    }
    if (!endOfOptions && (v === '-l' || v === '-L' || v === '--list' || v === '--table')) return;
    if (!endOfOptions && !signalSeen && /^-\w+$/.test(v)) {
      signalSeen = true; // `-9`, `-KILL`, `-SIGKILL`
      continue;
    }
    if (v === '-1') ctx.shared.out.add('kill-all', text);
  }
}

const GIT_GLOBAL_ARG = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path', '--list-cmds', '--attr-source']);

function checkGit(rest: Arg[], ctx: Ctx, text: string): void {
  const out = ctx.shared.out;
  let i = 0;
  while (i < rest.length) {
    const v = (rest[i] as Arg).value;
    if (!v.startsWith('-')) break;
    i += GIT_GLOBAL_ARG.has(v) ? 2 : 1;
  }
  const sub = rest[i]?.value;
  const args = rest.slice(i + 1);
  if (sub === 'clean') {
    const o = getopt(args, { shortArg: 'e', longArg: ['exclude'], long: ['force', 'dry-run', 'quiet', 'interactive', 'exclude'] });
    const force = o.short.has('f') || o.long.has('force');
    const dry = o.short.has('n') || o.long.has('dry-run');
    const wide = o.short.has('d') || o.short.has('x') || o.short.has('X');
    if (force && wide && !dry) out.add('git-clean-force', text);
  } else if (sub === 'reset') {
    const o = getopt(args, { long: ['hard', 'soft', 'mixed', 'merge', 'keep', 'quiet', 'no-quiet', 'patch', 'intent-to-add', 'pathspec-from-file', 'pathspec-file-nul', 'recurse-submodules', 'no-recurse-submodules', 'refresh', 'no-refresh'] });
    if (o.long.has('hard')) out.add('git-discard-changes', text);
  } else if (sub === 'checkout' || sub === 'restore') {
    const o = getopt(args, { shortArg: sub === 'checkout' ? 'bBt' : 's', longArg: ['source', 'conflict', 'orphan', 'pathspec-from-file'], long: ['force', 'staged', 'worktree', 'source', 'ours', 'theirs', 'patch', 'quiet', 'progress', 'merge', 'conflict', 'detach', 'track', 'no-track', 'orphan', 'ignore-other-worktrees', 'overlay', 'no-overlay', 'pathspec-from-file', 'pathspec-file-nul', 'recurse-submodules', 'ignore-skip-worktree-bits'] });
    const whole = o.operands.some((a) => /^(\.|\.\/|:\/|:\/\.|\*|:\(top\)\.?)$/.test(a.value));
    const worktree = sub === 'checkout' || !(o.short.has('S') || o.long.has('staged')) || o.short.has('W') || o.long.has('worktree');
    if ((sub === 'checkout' && (o.short.has('f') || o.long.has('force'))) || (whole && worktree && !o.short.has('p') && !o.long.has('patch'))) out.add('git-discard-changes', text);
  } else if (sub === 'stash' && args[0]?.value === 'clear') {
    out.add('git-discard-changes', text);
  } else if (sub === 'push') {
    const o = getopt(args, {
      shortArg: 'o',
      longArg: ['repo', 'push-option', 'receive-pack', 'exec'],
      long: ['all', 'branches', 'mirror', 'delete', 'tags', 'follow-tags', 'dry-run', 'porcelain', 'force', 'force-with-lease', 'force-if-includes', 'repo', 'set-upstream', 'thin', 'no-thin', 'quiet', 'verbose', 'progress', 'recurse-submodules', 'verify', 'no-verify', 'atomic', 'no-atomic', 'push-option', 'signed', 'no-signed', 'ipv4', 'ipv6', 'receive-pack', 'exec', 'prune', 'no-force-with-lease', 'no-force-if-includes'],
    });
    const force = o.short.has('f') || o.long.has('force') || o.long.has('force-with-lease') || o.long.has('force-if-includes') || o.long.has('mirror');
    if (force || o.operands.some((a) => a.value.startsWith('+'))) out.add('git-push-force', text);
  }
}

function checkCopyMove(name: string, rest: Arg[], ctx: Ctx, text: string): void {
  const out = ctx.shared.out;
  const spec: OptSpec =
    name === 'install'
      ? { shortArg: 'tSmogZ', longArg: ['target-directory', 'suffix', 'mode', 'owner', 'group', 'strip-program'] }
      : name === 'rsync'
        ? { shortArg: 'eBfMT', longArg: ['rsh', 'rsync-path', 'filter', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'temp-dir', 'partial-dir', 'compare-dest', 'copy-dest', 'link-dest', 'log-file', 'password-file', 'chmod', 'chown', 'usermap', 'groupmap', 'suffix', 'backup-dir', 'max-size', 'min-size', 'timeout', 'contimeout', 'port', 'sockopts', 'out-format', 'bwlimit'] }
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
      if (c === 'system' || c === 'device' || c === 'safe-device' || isHomeDotfile(a) || /^(~|\$HOME|\$\{HOME\})\/?$/.test(a.value)) out.add('system-overwrite', text);
    }
  }
}

/** `sed -i` / `perl -i` rewrite their file operands: writes like any other. */
function checkInPlaceEdit(name: string, rest: Arg[], ctx: Ctx, text: string): void {
  const sed = name === 'sed';
  const o = getopt(rest, sed ? { shortArg: 'efl', longArg: ['expression', 'file', 'line-length'] } : { shortArg: 'eEIMmx' });
  const inPlace = o.short.has('i') || rest.some((a) => /^--in-place(=|$)/.test(a.value) || /^-[^-]*i/.test(a.value));
  if (!inPlace) return;
  // The script is the first operand unless -e/-f (sed) or -e/-E (perl) gave it.
  const scriptGiven = rest.some((a) => /^-[^-]*[ef]/.test(a.value) || a.value === '--expression' || a.value === '--file' || /^--(expression|file)=/.test(a.value));
  const files = scriptGiven ? o.operands : o.operands.slice(1);
  for (const a of files) checkProtectedTarget(a, ctx, text);
}

// --- redirections, assignments, history, fork bombs ---------------------------------------------

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

function checkRedirects(redirects: readonly Redirection[], text: string, ctx: Ctx): void {
  for (const r of redirects) {
    if (r.type !== 'Redirect' || !r.target) continue;
    const isWrite = WRITE_OPS.has(r.operator) || (r.operator === '>&' && !/^(\d+-?|-)$/.test(r.target.value));
    if (!isWrite) continue;
    const [a] = wordToArgs(r.target);
    if (a) checkWriteTarget(a, ctx, text);
  }
}

function checkWriteTarget(a: Arg, ctx: Ctx, text: string): void {
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

function checkAssignment(name: string, value: Word | undefined, text: string, ctx: Ctx): void {
  if (name === 'HISTFILE' || ((name === 'HISTSIZE' || name === 'HISTFILESIZE') && value?.value === '0')) {
    ctx.shared.out.add('history-clear', text);
  }
  if (name === 'PROMPT_COMMAND' && value) {
    const [a] = wordToArgs(value);
    if (a) checkCodeArgs([a], ctx, text);
    analyzePayload(value.value, ctx);
  }
}

/** `!` starts history expansion in an interactive shell unless followed by blank, `=`, `(` or `"`. */
const HISTORY_BANG = /(^|[^\\])!(?![\s=("]|$)/;

function checkHistoryExpansion(word: Word, ctx: Ctx): void {
  const texts: string[] = [];
  if (!word.parts) texts.push(word.text);
  else {
    const visit = (p: WordPart): void => {
      if (p.type === 'Literal') texts.push(p.text);
      else if (p.type === 'DoubleQuoted') for (const c of p.parts) visit(c);
      else if (p.type === 'BraceExpansion') for (const c of p.parts ?? []) visit(c);
    };
    for (const p of word.parts) visit(p);
  }
  if (texts.some((t) => HISTORY_BANG.test(t))) ctx.shared.out.add('history-expansion', word.text);
}

/** A function that calls itself in a pipeline or in the background: `:(){ :|:& };:`. */
function checkForkBomb(fn: ShFunction, ctx: Ctx): void {
  const name = fn.name.value;
  const isSelfCall = (n: SyntaxNode): boolean => n.type === 'Command' && effectiveName(commandArgs(n)) === name;
  const containsSelfCall = (n: SyntaxNode): boolean => {
    let found = false;
    const visit = (m: SyntaxNode): void => {
      if (found || m.type === 'Function') return;
      if (isSelfCall(m)) found = true;
      else forEachChild(m, visit);
    };
    visit(n);
    return found;
  };
  let bomb = false;
  const visit = (n: SyntaxNode): void => {
    if (bomb || n.type === 'Function') return;
    if (n.type === 'Statement' && n.background && containsSelfCall(n)) bomb = true;
    else if (n.type === 'Pipeline' && n.commands.length > 1 && n.commands.some((c) => containsSelfCall(c))) bomb = true;
    else forEachChild(n, visit);
  };
  forEachChild(fn.body, visit);
  if (bomb) ctx.shared.out.add('fork-bomb', slice(ctx, fn));
}
