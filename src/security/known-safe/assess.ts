/**
 * The entry point and the walk: the danger check first, then every simple command in the tree must
 * be known to be safe or remembered; redirections and assignments are judged wherever they are.
 */
import { forEachChild, parse } from 'unbash';
import type { Assignment, Command, Redirection, SyntaxNode } from 'unbash';
import { createFilePolicy } from '../file-policy.js';
import { INTERPRETERS, SHELLS } from '../dangerous-commands/commands-code.js';
import { checkCommandSync, MAX_COMMAND_LENGTH } from '../dangerous-commands/index.js';
import { normalizeAbsolute } from '../dangerous-commands/paths.js';
import { peelWrapper } from '../dangerous-commands/wrappers.js';
import { commandArgs, wordToArgs, type Arg } from '../dangerous-commands/words.js';
import { explain, runnerWords, RUNS_OTHER } from './explain.js';
import { matchSafe, wherePathLike } from './match.js';
import { resolve, whereIs, type Place } from './paths.js';
import { EXPLAIN_WHY, type Assessment, type AssessOptions, type ExplainRuleId, type Reason } from './rules.js';
import { HARMLESS_VARIABLES } from './safe-commands.js';

const BUILT_IN_POLICY = createFilePolicy();
/** A remembered rule never covers these: they run code given in their arguments or from stdin. */
const NEVER_REMEMBERED = new Set([...SHELLS, ...RUNS_OTHER, 'eval', 'source', '.', 'alias', 'trap', 'ssh', 'find', 'fd', 'awk', 'gawk']);
/** Nor a command that runs code inline, runs another command or reads a credential, whatever the rule says. */
const NEVER_REMEMBERED_REASONS = new Set<ExplainRuleId>([
  'inline-program',
  'runs-other-command',
  'reads-credentials',
  'network-upload',
  'package-from-url',
]);
/** Explanations that only restate what a danger reason about the same command already says. */
const RESTATING = new Set<string>(['not-known-safe', 'write-elsewhere', 'outside-workspace']);
const SAFE_WRITE_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
/** Directories the shell may be in after `cd`s, past which relative paths count as outside. */
const MAX_DIRS = 16;
/** What a remembered rule covers at most: the program and two words (`npm run build`, `docker compose up`). */
const MAX_RULE_WORDS = 3;

/**
 * Whether `text` may be typed into the terminal without asking: no danger rule matches and every
 * command is known to be safe or matches a remembered rule. See src/security/corpus/README.md.
 */
export function assessCommand(text: string, options: AssessOptions = {}): Assessment {
  const first = assess(text, options);
  if (!first.result.ask || !first.candidate || !isRememberable(first.candidate)) return first.result;
  const withRule = assess(text, { ...options, allowRules: [...(options.allowRules ?? []), first.candidate] });
  return withRule.result.ask ? first.result : { ...first.result, suggestedRule: first.candidate };
}

/** A rule "always allow" may remember: never the program alone, a shell, a wrapper, or an interpreter without a script. */
export function isRememberable(rule: string): boolean {
  const words = ruleWords(rule);
  // The program alone would cover every use of it, options that run other programs included.
  if (words.length < 2 || words.length > MAX_RULE_WORDS) return false;
  // A runner's rule is judged by what it runs: `pnpm exec sh` is a shell.
  const runner = runnerWords(words);
  const program = words[runner] as string;
  const next = words[runner + 1];
  if (NEVER_REMEMBERED.has(program)) return false;
  // An interpreter only with a script or subcommand: `node server.js`, never `python3 -c`.
  return !(INTERPRETERS.test(program) && (next === undefined || next.startsWith('-')));
}

function ruleWords(rule: string): string[] {
  return rule
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
}

interface Walk {
  readonly place: Place;
  readonly allowRules: string[][];
  readonly reasons: Reason[];
  /** `rule` and command of every reason, and the commands with a reason (sets: texts can hold thousands of commands). */
  readonly reported: Set<string>;
  readonly unknown: Set<string>;
  candidate: string | undefined;
}

function assess(text: string, options: AssessOptions): { result: Assessment; candidate: string | undefined } {
  const danger = checkCommandSync(text, options);
  if (text.length > MAX_COMMAND_LENGTH) return { result: { ask: true, reasons: danger.reasons, unknown: [] }, candidate: undefined };
  const cwd = options.cwd ? normalizeAbsolute(options.cwd) : undefined;
  const walk: Walk = {
    place: {
      cwd,
      dirs: [options.workspaceCwd ?? ''],
      isSensitive: options.isSensitive ?? BUILT_IN_POLICY.isSensitive,
      isProtected: options.isProtected ?? BUILT_IN_POLICY.isProtected,
    },
    allowRules: (options.allowRules ?? []).filter(isRememberable).map(ruleWords),
    reasons: [],
    reported: new Set(),
    unknown: new Set(),
    candidate: undefined,
  };
  const source = text.replace(/\r\n?/g, '\n');
  try {
    visit(parse(source), source, walk);
  } catch {
    // The danger check reports what made the text unreadable; an unreadable text always asks.
    walk.unknown.add(text);
  }
  const dangerCommands = new Set(danger.reasons.map((r) => r.command));
  const explanations = walk.reasons.filter((r) => !RESTATING.has(r.rule) || !dangerCommands.has(r.command));
  const reasons: Reason[] = [...danger.reasons, ...explanations];
  const ask = danger.dangerous || walk.unknown.size > 0 || reasons.length > 0;
  return {
    result: { ask, reasons: ask ? reasons : [], unknown: [...walk.unknown] },
    candidate: danger.dangerous ? undefined : walk.candidate,
  };
}

function visit(node: SyntaxNode, source: string, walk: Walk): void {
  let inner = source;
  switch (node.type) {
    case 'Script':
      if (node.source !== undefined) inner = node.source;
      break;
    case 'Command':
      assessSimpleCommand(node, source, walk);
      break;
    case 'Redirected':
      for (const r of node.redirects) checkRedirect(r, source.slice(node.pos, node.end), walk);
      break;
    case 'Function':
      report(walk, 'defines-code', source.slice(node.pos, node.end));
      break;
    case 'Coproc':
      report(walk, 'runs-other-command', source.slice(node.pos, node.end));
      break;
    default:
      break;
  }
  forEachChild(node, (child) => visit(child, inner, walk));
}

function report(walk: Walk, rule: ExplainRuleId, command: string, program?: string): void {
  const cmd = command.trim();
  walk.unknown.add(cmd);
  if (walk.reported.has(`${rule}\u0000${cmd}`)) return;
  walk.reported.add(`${rule}\u0000${cmd}`);
  walk.reported.add(cmd);
  const why =
    rule === 'not-known-safe' ? `runs ${program ?? cmd}, which is not a command known to be safe` : (EXPLAIN_WHY.get(rule) as string);
  walk.reasons.push({ command: cmd, rule, why });
}

function assessSimpleCommand(cmd: Command, source: string, walk: Walk): void {
  const text = source.slice(cmd.pos, cmd.end);
  for (const r of cmd.redirects) checkRedirect(r, text, walk);
  for (const p of cmd.prefix) if (p.type === 'Assignment') checkAssignment(p, text, walk);
  for (const a of cmd.args)
    if (a.type === 'Assignment' && /^(export|declare|typeset|local|readonly)$/.test(cmd.name?.value ?? '')) checkAssignment(a, text, walk);
  const all = commandArgs(cmd);
  if (!all.length) return;
  const argv = peelHarmless(all, text, walk);
  if (!argv.length) return;
  const name = argv[0]?.literal ? (argv[0] as Arg).value : undefined;
  if (name === 'cd' || name === 'pushd')
    moveTo(
      argv.slice(1).find((a) => a.value === '-' || !a.value.startsWith('-')),
      walk,
    );
  else if (name === 'popd') walk.place.dirs = undefined;
  const failure = matchSafe(argv, walk.place);
  if (!failure) return;
  const explained = explain(argv, walk.place);
  const remembered =
    !failure.denied &&
    !explained.some((r) => NEVER_REMEMBERED_REASONS.has(r)) &&
    walk.allowRules.some((rule) => rule.every((w, i) => argv[i]?.literal && argv[i]?.value === w));
  if (remembered) {
    // What follows the remembered words is free, but not a path out of the workspace.
    const where = argv.map((a) => wherePathLike(a, walk.place)).find((w) => w !== 'inside');
    if (where) report(walk, where === 'credentials' ? 'reads-credentials' : 'outside-workspace', text);
    return;
  }
  walk.candidate ??= suggestRule(argv);
  for (const rule of explained) report(walk, rule, text);
  if (failure.rule !== 'not-known-safe') report(walk, failure.rule, text);
  // The fallback, when nothing more specific names this command.
  else if (!walk.reported.has(text.trim())) report(walk, 'not-known-safe', text, failure.words);
}

/** `time`, `nice`, `timeout DURATION`, `nohup`, `command` and `env` with harmless assignments run the command after them. */
function peelHarmless(argv: Arg[], text: string, walk: Walk): Arg[] {
  let cur = argv;
  for (;;) {
    const head = cur[0];
    if (!head?.literal) return cur;
    const name = head.value;
    const next = cur[1]?.value ?? '';
    if (name === 'env') {
      const assignments = cur.slice(1).filter((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value));
      if (next.startsWith('-') || !assignments.length) return cur;
      for (const a of assignments)
        if (!HARMLESS_VARIABLES.has(a.value.slice(0, a.value.indexOf('=')))) report(walk, 'unsafe-variable', text);
      cur = cur.slice(1 + assignments.length);
      continue;
    }
    const harmless =
      (name === 'time' && !next.startsWith('-')) ||
      (name === 'nohup' && !next.startsWith('-')) ||
      (name === 'command' && !next.startsWith('-')) ||
      (name === 'nice' && /^(-n|-\d+|--adjustment=\d+)$/.test(next)) ||
      (name === 'timeout' && /^\d+(\.\d+)?[smhd]?$/.test(next));
    if (!harmless || cur.length < 2) return cur;
    const peeled = peelWrapper(name, cur);
    if (peeled.kind !== 'rest') return cur;
    cur = peeled.rest;
  }
}

function checkAssignment(a: Assignment, text: string, walk: Walk): void {
  if (!HARMLESS_VARIABLES.has(a.name)) report(walk, a.name === 'PROMPT_COMMAND' ? 'defines-code' : 'unsafe-variable', text);
}

function checkRedirect(r: Redirection, text: string, walk: Walk): void {
  if (r.type !== 'Redirect' || !r.target) return;
  const [target] = wordToArgs(r.target);
  if (!target) return;
  if (r.operator === '<&' || (r.operator === '>&' && /^(\d+-?|-)$/.test(target.value))) return;
  const writing = r.operator !== '<';
  if (writing && target.literal && SAFE_WRITE_DEVICES.has(target.value)) return;
  const where = whereIs(target, walk.place, writing);
  if (where === 'inside') return;
  report(walk, where === 'credentials' ? 'reads-credentials' : writing ? 'write-elsewhere' : 'outside-workspace', text);
}

/** `cd DIR`: from now on the shell may be in DIR or where it was (a subshell's `cd` does not last). */
function moveTo(target: Arg | undefined, walk: Walk): void {
  const place = walk.place;
  if (!target || target.value === '-') {
    place.dirs = undefined;
    return;
  }
  const paths = resolve(target, place);
  const dirs = Array.isArray(paths) && place.dirs ? [...new Set([...place.dirs, ...paths])] : undefined;
  // Each `cd` may double the directories (`cd a; cd b` may be in "", a, b or a/b): past a few, count as left.
  place.dirs = dirs && dirs.length <= MAX_DIRS ? dirs : undefined;
}

/** The program and the leading words that name what runs: `npm run build`, `git commit`, `docker compose up`. */
function suggestRule(argv: readonly Arg[]): string | undefined {
  const words: string[] = [];
  for (const a of argv) {
    if (words.length === MAX_RULE_WORDS || !a.literal || a.value.startsWith('-') || /\s/.test(a.value) || a.value === '') break;
    words.push(a.value);
  }
  return words.length ? words.join(' ') : undefined;
}
