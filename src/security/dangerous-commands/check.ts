/**
 * The entry points and the walk: normalise the text, parse it with `unbash`, visit every node of
 * the tree (commands go to commands.ts, pipelines to the code checks), and the checks on nodes that
 * are not simple commands (assignments, history expansion in words, fork-bomb functions).
 */
import { forEachChild, parse } from 'unbash';
import type { Command, Function as ShFunction, SyntaxNode, Word, WordPart } from 'unbash';
import { createFilePolicy } from '../file-policy.js';
import { analyzeArgv } from './commands.js';
import { checkCodeArgs, checkPipeline } from './commands-code.js';
import { checkRedirects } from './commands-files.js';
import { analyzePayload, Collector, slice, type Ctx, type Shared } from './context.js';
import { normalizeAbsolute } from './paths.js';
import { MAX_COMMAND_LENGTH, MAX_PAYLOAD_DEPTH, type CheckOptions, type CheckResult } from './rules.js';
import { effectiveName } from './wrappers.js';
import { commandArgs, wordToArgs } from './words.js';

const BUILT_IN_POLICY = createFilePolicy();

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

/**
 * The confirmation line: `Agent wants to run: rm -rf / — deletes files recursively`. Takes this
 * check's result or a known-safe assessment (`assessCommand`): anything with reasons that say why.
 */
export function formatConfirmation(
  text: string,
  result: { readonly reasons: readonly { readonly why: string }[] },
  maxLength = 200,
): string {
  let shown = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  if (shown.length > maxLength) shown = `${shown.slice(0, maxLength - 1)}…`;
  const whys = [...new Set(result.reasons.map((r) => r.why))];
  return whys.length ? `Agent wants to run: ${shown} — ${whys.join('; ')}` : `Agent wants to run: ${shown}`;
}

const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

function analyzeText(raw: string, options: CheckOptions, out: Collector): void {
  const shared: Shared = {
    out,
    cwd: options.cwd ? normalizeAbsolute(options.cwd) : undefined,
    workspaceCwd: options.workspaceCwd ?? '',
    isProtected: options.isProtected ?? BUILT_IN_POLICY.isProtected,
    cwdLeft: false,
    downloaded: new Set(),
    analyzePayload: analyzeNested,
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

/** `Shared.analyzePayload`: analyses a string that a shell will run as code (`sh -c PAYLOAD`, `eval …`). */
function analyzeNested(code: string, ctx: Ctx): void {
  analyzeScript(code, { source: code, depth: ctx.depth + 1, shared: ctx.shared });
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

function analyzeCommand(cmd: Command, ctx: Ctx): void {
  checkRedirects(cmd.redirects, slice(ctx, cmd), ctx);
  const args = commandArgs(cmd);
  if (args.length) analyzeArgv(args, ctx, cmd);
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
