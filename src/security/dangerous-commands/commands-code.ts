/**
 * Code the check cannot read as written: strings and scripts a shell or interpreter runs (`sh -c`,
 * `source`, here-documents fed to a shell), code fetched by a downloader (`curl … | sh`, a file
 * downloaded earlier and then run) or produced by another command and piped into a shell.
 */
import { forEachChild } from 'unbash';
import type { Command, Pipeline, SyntaxNode, Word } from 'unbash';
import { optionOutputs, WRITE_OPS } from './commands-files.js';
import { analyzePayload, slice, type Ctx } from './context.js';
import { basename } from './paths.js';
import type { RuleId } from './rules.js';
import { effectiveArgv, effectiveName } from './wrappers.js';
import { commandArgs, wordToArgs, type Arg } from './words.js';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish', 'rbash', 'tcsh', 'csh']);
export const INTERPRETERS = /^(python[0-9.]*|node|nodejs|deno|bun|perl|ruby|php|lua|tclsh|osascript|Rscript|pwsh)$/;
export const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'wget2',
  'fetch',
  'http',
  'https',
  'xh',
  'aria2c',
  'lwp-request',
  'lwp-download',
  'GET',
]);

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
export function checkCodeArgs(args: readonly Arg[], ctx: Ctx, text: string): void {
  for (const a of args) {
    if (runsDownloader(a.word)) ctx.shared.out.add('remote-code', text);
    else if (hasSubstitution(a.word)) ctx.shared.out.add('pipe-to-shell', text);
  }
}

/** A script operand of a shell or `source`: `<(curl …)`, `$(…)`. */
export function checkScriptOperand(a: Arg, ctx: Ctx, text: string): void {
  if (runsDownloader(a.word)) ctx.shared.out.add('remote-code', text);
  else if (hasSubstitution(a.word)) ctx.shared.out.add('pipe-to-shell', text);
}

/** A shell reading its script from stdin: check here-documents, here-strings and `< <(…)`. */
export function checkStdinScript(cmd: Command | undefined, ctx: Ctx, text: string): void {
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

export function analyzeShell(rest: Arg[], ctx: Ctx, cmd: Command | undefined, text: string): void {
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

/** Remembers where `curl -o F` (also `-sLo F`), `wget -O F`, `wget URL` (saves as the URL's last segment) and `curl … > F` write. */
export function recordDownload(name: string, rest: readonly Arg[], cmd: Command | undefined, ctx: Ctx): void {
  const files = ctx.shared.downloaded;
  for (const a of optionOutputs(name, rest)) files.add(downloadKey(a.value));
  for (const a of rest) {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(a.value)) continue;
    const last = basename(a.value.replace(/[?#].*$/, ''));
    if (last) files.add(last);
  }
  for (const r of cmd?.redirects ?? []) {
    if (r.type === 'Redirect' && r.target && WRITE_OPS.has(r.operator)) files.add(downloadKey(r.target.value));
  }
}

export function checkRunsDownloaded(a: Arg, ctx: Ctx, text: string): void {
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

export function checkPipeline(pipe: Pipeline, ctx: Ctx): void {
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
      (prevName === 'echo'
        ? !prevRest.slice(0, Math.max(echoFlags, 0)).some((a) => a.value.includes('e'))
        : words.length === 1 && !(words[0] as string).includes('%'));
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
