/**
 * What a command typed into a sandboxed agent terminal needs beyond the sandbox (issue 28): the
 * sandbox contains everything else, so only these ask the person, or are refused.
 *
 * - It deletes, empties or overwrites what the person could lose: files git tracks (outside a
 *   repository, any existing file but build outputs), or the repository itself (`.git`); `git clean`,
 *   `git reset --hard`, `git checkout -- PATH`, `git restore`, `git stash drop|clear`. Asks.
 * - It reaches a host the sandbox does not let through (a URL, `git@host:`, `ssh host`). Asks.
 * - It writes a path the sandbox keeps read-only (git hooks and config, editor tasks, …): it would
 *   fail inside, so it is refused with what to do instead.
 * - It cannot be read: unparseable text, or a target only known at run time. Asks.
 *
 * Only what the command line shows is judged: a program or script the command runs can still delete
 * inside the workspace (docs/security.md says so). Pure: the caller gives what is on disk (BoxView).
 */
import picomatch from 'picomatch';
import { forEachChild, parse } from 'unbash';
import type { Command, Redirection, SyntaxNode } from 'unbash';
import { getopt } from './dangerous-commands/options.js';
import { normalizeAbsolute } from './dangerous-commands/paths.js';
import { peelWrapper } from './dangerous-commands/wrappers.js';
import { commandArgs, wordToArgs, type Arg } from './dangerous-commands/words.js';
import type { Assessment, Reason } from './known-safe/rules.js';

export interface BoxView {
  /** Absolute workspace directory. */
  workspace: string;
  /** Absolute directory the command starts in. */
  cwd: string;
  /** The person's home, for `~/…`. */
  home: string;
  /**
   * Whether the workspace path (relative, normalised; '' is the root) is, or holds, something the
   * person could lose (a tracked file; outside a repository, an existing file but build outputs).
   */
  holdsPersonFiles(relPath: string): boolean;
  /** Whether the workspace path is a directory now (`cp a.txt dir` writes dir/a.txt). */
  isDirectory(relPath: string): boolean;
  /** Whether any such file matches the glob (workspace-relative, picomatch syntax). */
  globHoldsPersonFiles(relGlob: string): boolean;
  /** The pattern that makes a workspace path read-only in the sandbox, or undefined. */
  isReadOnly(relPath: string): string | undefined;
  /** Whether the sandbox lets the command reach `host:port` (undefined port: the scheme's default). */
  hostAllowed(host: string, port: number | undefined): boolean;
}

export type BoxRule = 'deletes-person-files' | 'target-unknown' | 'host-not-allowed' | 'writes-read-only' | 'unreadable';

export interface BoxAssessment extends Assessment {
  /** Refused outright rather than asked: the sandbox keeps these paths read-only whatever the person says. */
  readOnly: string[];
  /** Hosts not let through, for "Allow once". */
  hosts: string[];
}

const DELETERS = new Set(['rm', 'unlink', 'shred', 'srm']);
const LOOPBACK = /^(localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0)$/i;
const URL_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]]+\]|[^/:?#]+)(?::(\d+))?/i;
const SCP_HOST = /^(?:[^@/:\s]+@)([A-Za-z0-9.-]+):/;
const NETWORK_PROGRAMS = new Set(['ssh', 'scp', 'sftp', 'rsync', 'git', 'curl', 'wget', 'nc', 'ncat', 'telnet', 'ftp']);

interface Walk {
  view: BoxView;
  /** The shell's directory as the text runs (undefined: only known at run time). */
  dir: string | undefined;
  reasons: Reason[];
  readOnly: Set<string>;
  hosts: Set<string>;
  /** Whether a path the text writes or deletes, or a host it names, was judged (against the view). */
  looked: boolean;
}

/** Judge `text`, typed into a sandboxed shell, against what the sandbox cannot contain. */
export function assessInBox(text: string, view: BoxView): BoxAssessment {
  return verdictOf(walkText(text, view));
}

function walkText(text: string, view: BoxView): Walk {
  const walk: Walk = { view, dir: view.cwd, reasons: [], readOnly: new Set(), hosts: new Set(), looked: false };
  const source = text.replace(/\r\n?/g, '\n');
  try {
    const script = parse(source);
    if ((script as { errors?: unknown[] }).errors?.length) throw new Error('unparseable');
    visit(script, source, walk, 0);
  } catch {
    add(walk, 'unreadable', text, 'cannot be read as shell commands, so what it deletes or reaches is not known');
  }
  return walk;
}

function verdictOf(walk: Walk): BoxAssessment {
  const reasons = walk.reasons;
  return {
    ask: reasons.length > 0,
    reasons,
    unknown: [...new Set(reasons.map((r) => r.command))],
    readOnly: [...walk.readOnly],
    hosts: [...walk.hosts],
  };
}

/**
 * The verdict on `text` when it needs nothing of the disk, the shell's directory or the sandbox's
 * hosts (`npm test`, `echo hi`, `ls`): where judging happens away from the files (Theia's window),
 * such commands need no round trip. Undefined when it names a path it writes or deletes, or a host.
 */
export function assessWithoutDisk(text: string): BoxAssessment | undefined {
  const nothing = () => false;
  const walk = walkText(text, {
    workspace: '/nowhere',
    cwd: '/nowhere',
    home: '/nowhere',
    holdsPersonFiles: nothing,
    isDirectory: nothing,
    globHoldsPersonFiles: nothing,
    isReadOnly: () => undefined,
    hostAllowed: nothing,
  });
  return walk.looked ? undefined : verdictOf(walk);
}

function add(walk: Walk, rule: BoxRule, command: string, why: string): void {
  const cmd = command.trim();
  if (!walk.reasons.some((r) => r.rule === rule && r.command === cmd && r.why === why)) walk.reasons.push({ command: cmd, rule, why });
}

const MAX_DEPTH = 4;

function visit(node: SyntaxNode, source: string, walk: Walk, depth: number): void {
  let inner = source;
  if (node.type === 'Script' && node.source !== undefined) inner = node.source;
  if (node.type === 'Command') judgeCommand(node, source, walk, depth);
  if (node.type === 'Redirected') for (const r of node.redirects) judgeRedirect(r, source.slice(node.pos, node.end), walk);
  forEachChild(node, (child) => visit(child, inner, walk, depth));
}

/** A literal path as an absolute one, or undefined when only known at run time. */
function absolute(arg: Arg, walk: Walk): string | undefined {
  if (!arg.literal && !arg.hasGlob) return undefined;
  const value = arg.value;
  if (value === '~' || value.startsWith('~/')) return normalizeAbsolute(walk.view.home + value.slice(1));
  if (value.startsWith('/')) return normalizeAbsolute(value);
  return walk.dir === undefined ? undefined : normalizeAbsolute(`${walk.dir}/${value}`);
}

/** The workspace-relative path; '' for the workspace or a directory holding it (`rm -rf /` reaches it too). */
function relative(abs: string, workspace: string): string | undefined {
  if (abs === workspace || abs === '/' || workspace.startsWith(`${abs}/`)) return '';
  return abs.startsWith(`${workspace}/`) ? abs.slice(workspace.length + 1) : undefined;
}

/** A path the command deletes or overwrites: asks when the person could lose something there. */
function judgeLoss(arg: Arg, command: string, walk: Walk, what = 'deletes or overwrites'): void {
  walk.looked = true;
  const abs = absolute(arg, walk);
  if (abs === undefined) return add(walk, 'target-unknown', command, `${what} ${arg.value}, a path only known when it runs`);
  const rel = arg.hasGlob && globReaches(abs, walk.view.workspace) ? '' : relative(abs, walk.view.workspace);
  const protectedAt = rel !== undefined && walk.view.isReadOnly(rel);
  if (rel !== undefined && protectedAt) walk.readOnly.add(rel);
  // Outside the workspace everything is read-only (or the sandbox's own /tmp): nothing to lose.
  if (rel === undefined || protectedAt) return;
  const loses = arg.hasGlob ? walk.view.globHoldsPersonFiles(rel) : walk.view.holdsPersonFiles(rel);
  if (loses) add(walk, 'deletes-person-files', command, `${what} ${rel || 'the workspace'}, which holds files you could lose`);
}

/** Whether a glob outside the workspace (`../*`, `/*`) matches the workspace or a directory holding it. */
function globReaches(glob: string, workspace: string): boolean {
  if (relative(picomatch.scan(glob).base || '/', workspace) !== '') return false;
  const match = picomatch(glob, { dot: true });
  const parts = workspace.split('/');
  return parts.some((_, i) => i > 0 && match(parts.slice(0, i + 1).join('/')));
}

/** A path the command writes (creates or appends): refused only where the sandbox keeps it read-only. */
function judgeWrite(arg: Arg, walk: Walk): void {
  walk.looked = true;
  const abs = absolute(arg, walk);
  const rel = abs === undefined ? undefined : relative(abs, walk.view.workspace);
  if (rel !== undefined && walk.view.isReadOnly(rel)) walk.readOnly.add(rel);
}

function judgeRedirect(r: Redirection, command: string, walk: Walk): void {
  if (r.type !== 'Redirect' || !r.target || r.operator === '<' || r.operator === '<&' || r.operator === '>&') return;
  const [arg] = wordToArgs(r.target);
  if (!arg) return;
  if (r.operator === '>' || r.operator === '>|' || r.operator === '&>') judgeLoss(arg, command, walk, 'empties');
  else if (r.operator === '>>' || r.operator === '&>>' || r.operator === '<>') judgeWrite(arg, walk);
}

function judgeCommand(cmd: Command, source: string, walk: Walk, depth: number): void {
  const text = source.slice(cmd.pos, cmd.end);
  for (const r of cmd.redirects) judgeRedirect(r, text, walk);
  let argv = commandArgs(cmd);
  // Peel sudo, env, nice, timeout, xargs, …: what finally runs is judged.
  let fromXargs = false;
  for (let i = 0; i < 8 && argv[0]?.literal; i++) {
    const name = argv[0].value.replace(/^.*\//, '');
    const peeled = peelWrapper(name, argv);
    if (peeled.kind !== 'rest') break;
    if (name === 'xargs' || name === 'parallel') fromXargs = true;
    argv = peeled.rest;
  }
  const head = argv[0];
  if (!head) return;
  for (const arg of argv.slice(1)) judgeHost(arg, head, text, walk);
  if (!head.literal) return add(walk, 'target-unknown', text, `runs ${head.value}, a command only known when it runs`);
  const name = head.value.replace(/^.*\//, '');
  const args = argv.slice(1);
  if (name === 'cd' || name === 'pushd') {
    const to = args.find((a) => !a.value.startsWith('-'));
    walk.dir = to === undefined ? walk.view.home : to.literal ? absolute(to, walk) : undefined;
    return;
  }
  // What xargs feeds a deleter is only known when it runs.
  const losing = (arg: Arg, what?: string) =>
    fromXargs
      ? add(walk, 'target-unknown', text, `${name} gets its files from its input, only known when it runs`)
      : judgeLoss(arg, text, walk, what);
  if (DELETERS.has(name)) {
    const { operands } = getopt(args);
    if (fromXargs) losing(args[0] ?? head);
    for (const arg of operands) losing(arg);
    return;
  }
  switch (name) {
    case 'truncate':
      for (const arg of getopt(args, { shortArg: 'sr', longArg: ['size', 'reference'] }).operands) losing(arg, 'empties');
      return;
    case 'mv':
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync': {
      const opts = getopt(args, { shortArg: 'tSm', longArg: ['target-directory', 'suffix', 'mode', 'backup', 'exclude', 'include'] });
      if (name === 'ln' && !opts.short.has('f') && !opts.long.has('force')) return;
      const target = targetOf(args, opts.operands);
      if (!target) return;
      if (name === 'rsync' && [...opts.long].some((o) => o.startsWith('delete'))) return losing(target, 'deletes files in');
      const sources = opts.operands.filter((a) => a !== target);
      for (const source of sources) losing(intoDirectory(target, source, walk), 'overwrites');
      // Moved out of the workspace is gone from it (and out of the sandbox's own /tmp, gone with it).
      const to = absolute(target, walk);
      if (name === 'mv' && (to === undefined || relative(to, walk.view.workspace) === undefined))
        for (const source of sources) losing(source, 'moves out of the workspace');
      judgeWrite(target, walk);
      return;
    }
    case 'dd':
      for (const arg of args) if (arg.value.startsWith('of=')) losing({ ...arg, value: arg.value.slice(3) }, 'overwrites');
      return;
    case 'tee': {
      const opts = getopt(args);
      const appends = opts.short.has('a') || opts.long.has('append');
      for (const arg of opts.operands) {
        if (appends) judgeWrite(arg, walk);
        else losing(arg, 'overwrites');
      }
      return;
    }
    case 'touch':
    case 'mkdir':
      for (const arg of getopt(args, { shortArg: 'mdrt' }).operands) judgeWrite(arg, walk);
      return;
    case 'find':
      return judgeFind(args, text, walk);
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
      return judgeAwk(args, text, walk);
    case 'git':
      return judgeGit(args, text, walk);
    case 'source':
    case '.':
      if (args[0] && (!args[0].literal || /^\/(dev|proc)\//.test(args[0].value)))
        add(walk, 'target-unknown', text, 'runs commands only known when it runs');
      return;
    case 'bash':
    case 'sh':
    case 'dash':
    case 'zsh':
    case 'ksh':
    case 'fish':
    case 'eval': {
      const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/i.test(a.value) && !a.value.startsWith('--'));
      if (name !== 'eval' && c < 0) {
        // A script file runs as any program does; with none, the shell runs what its input holds (`… | sh`, `sh <<EOF`).
        const script = args.find((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
        const asks = args.some((a) => a.value === '-s') || (!script && !args.some((a) => /^--(version|help)$/.test(a.value)));
        if (asks) add(walk, 'target-unknown', text, 'runs the commands its input holds, only known when it runs');
        return;
      }
      const inline = name === 'eval' ? args : args.slice(c + 1, c + 2);
      const program = inline.map((a) => a.value).join(' ');
      if (inline.some((a) => !a.literal) || depth >= MAX_DEPTH)
        return add(walk, 'target-unknown', text, 'runs commands only known when it runs');
      const nested = parse(program);
      visit(nested, program, walk, depth + 1);
      return;
    }
    default:
      return;
  }
}

/**
 * An awk program given inline runs commands (`system(…)`, `print | "cmd"`, `"cmd" | getline`) and
 * writes files (`print > "out"`) that the command line names only inside the program: asked,
 * as `sh -c` with a program only known when it runs is. A program from a file (`-f`) runs as a
 * script does.
 */
function judgeAwk(args: Arg[], text: string, walk: Walk): void {
  let program: Arg | undefined;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === '-f' || value.startsWith('--file')) return;
    if (value === '-F' || value === '-v') i++;
    else if (value === '--') {
      program = args[i + 1];
      break;
    } else if (!value.startsWith('-')) {
      program = args[i];
      break;
    }
  }
  if (!program) return;
  if (!program.literal || /\bsystem\s*\(|(^|[^|])\|(?!\|)|\bprintf?\b[^;{}]*>/.test(program.value))
    add(walk, 'target-unknown', text, 'awk runs commands or writes files its program names, only known when it runs');
}

/** The destination of cp/mv/ln/install/rsync: `-t DIR`, else the last operand (with more than one). */
function targetOf(args: Arg[], operands: Arg[]): Arg | undefined {
  const i = args.findIndex((a) => a.value === '-t' || a.value === '--target-directory' || a.value.startsWith('--target-directory='));
  if (i >= 0) {
    const a = args[i]!;
    return a.value.includes('=') ? { ...a, value: a.value.slice(a.value.indexOf('=') + 1) } : args[i + 1];
  }
  return operands.length > 1 ? operands.at(-1) : undefined;
}

/** `cp a.txt dir` writes dir/a.txt: the file a copy or move lands on. */
function intoDirectory(target: Arg, source: Arg, walk: Walk): Arg {
  const abs = absolute(target, walk);
  const rel = abs === undefined ? undefined : relative(abs, walk.view.workspace);
  if (rel === undefined || !(target.value.endsWith('/') || walk.view.isDirectory(rel))) return target;
  const base = source.value.replace(/\/+$/, '').replace(/^.*\//, '');
  return { ...target, value: `${target.value.replace(/\/+$/, '')}/${base}`, literal: target.literal && source.literal };
}

/** `find PATH … -delete` or `-exec rm`: what it walks may go. */
function judgeFind(args: Arg[], text: string, walk: Walk): void {
  const deletes = args.some((a) => a.value === '-delete') || args.some((a, i) => /^-(exec|execdir|ok|okdir)$/.test(a.value) && args[i + 1]);
  if (!deletes) return;
  const starts = args.slice(
    0,
    Math.max(
      0,
      args.findIndex((a) => /^[-(!]/.test(a.value)),
    ),
  );
  const paths = starts.length > 0 ? starts : [{ ...args[0]!, value: '.', literal: true, hasGlob: false }];
  for (const start of paths.length ? paths : []) judgeLoss(start, text, walk, 'deletes files in');
}

/** git's subcommands that throw work away; `-C DIR` moves where it runs. */
function judgeGit(args: Arg[], text: string, walk: Walk): void {
  let i = 0;
  const saved = walk.dir;
  for (; i < args.length && args[i]!.value.startsWith('-'); i++) {
    const v = args[i]!.value;
    if (v === '-C') {
      const to = args[++i];
      walk.dir = to?.literal ? absolute(to, walk) : undefined;
    } else if (v === '-c' || v === '--git-dir' || v === '--work-tree' || v === '--namespace') i++;
  }
  const sub = args[i]?.value;
  const rest = args.slice(i + 1);
  // git takes an unambiguous start of a long option (`--har` is `--hard`): from two letters on, here.
  const names = (f: string, v: string) =>
    v === f || (f.startsWith('--') && (v.startsWith(`${f}=`) || (v.length >= 4 && !v.includes('=') && f.startsWith(v))));
  const has = (...flags: string[]) => rest.some((a) => flags.some((f) => names(f, a.value)));
  const paths = () => {
    const dash = rest.findIndex((a) => a.value === '--');
    return dash >= 0 ? rest.slice(dash + 1) : rest.filter((a) => !a.value.startsWith('-'));
  };
  const whole = (why: string) => judgeLoss({ ...(args[i] ?? args[0]!), value: '.', literal: true, hasGlob: false }, text, walk, why);
  switch (sub) {
    case 'rm':
      if (!has('--cached')) for (const arg of paths()) judgeLoss(arg, text, walk, 'deletes');
      break;
    case 'clean':
      if (!has('-n', '--dry-run')) add(walk, 'deletes-person-files', text, 'deletes files git does not track, which may be your new work');
      break;
    case 'reset':
      if (has('--hard', '--merge', '--keep')) whole('throws away uncommitted changes in');
      break;
    case 'checkout':
    case 'restore':
    case 'switch': {
      if (sub === 'restore' && has('--staged', '-S') && !has('--worktree', '-W')) break;
      if (has('-f', '--force', '--discard-changes')) whole('throws away uncommitted changes in');
      // `git checkout NAME` takes a path when no branch is called so: every name that holds your files counts.
      else if (sub !== 'switch') for (const arg of paths()) judgeLoss(arg, text, walk, 'throws away uncommitted changes in');
      break;
    }
    case 'stash':
      if (rest[0] && /^(drop|clear)$/.test(rest[0].value)) add(walk, 'deletes-person-files', text, 'deletes saved stashes');
      break;
    case 'config': {
      const reads =
        has('--get', '--get-all', '--get-regexp', '--list', '-l', '--global', '--system', '--show-origin') ||
        rest.filter((a) => !a.value.startsWith('-')).length < 2;
      if (!reads) walk.readOnly.add('.git/config');
      break;
    }
    case 'remote':
      if (rest[0] && /^(add|remove|rm|rename|set-url|set-branches|set-head)$/.test(rest[0].value)) walk.readOnly.add('.git/config');
      break;
    default:
      break;
  }
  walk.dir = saved;
}

/** A host the command names (`https://host/…`, `git@host:repo`, `ssh host`) that the sandbox does not let through. */
function judgeHost(arg: Arg, head: Arg, text: string, walk: Walk): void {
  const value = arg.value.replace(/^--?[A-Za-z-]+=/, '');
  const url = URL_HOST.exec(value);
  let host: string | undefined;
  let port: number | undefined;
  if (url) {
    host = url[1]!.replace(/^\[|\]$/g, '');
    port = url[2] === undefined ? undefined : Number(url[2]);
  } else if (head.literal && NETWORK_PROGRAMS.has(head.value.replace(/^.*\//, ''))) {
    host = SCP_HOST.exec(value)?.[1];
  }
  if (!host || LOOPBACK.test(host)) return;
  walk.looked = true;
  if (walk.view.hostAllowed(host, port)) return;
  walk.hosts.add(host);
  add(walk, 'host-not-allowed', text, `reaches ${host}, which the sandbox does not let through`);
}
