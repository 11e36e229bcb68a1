/**
 * Matching one command (its arguments after harmless wrappers) against the known-safe rules:
 * subcommands, options, operands and where their paths point.
 */
import { getopt } from '../dangerous-commands/options.js';
import type { Arg } from '../dangerous-commands/words.js';
import { looksLikePath, programName, whereIs, type Place, type Where } from './paths.js';
import type { ExplainRuleId } from './rules.js';
import { SAFE_COMMANDS, VERSION_ONLY, type SafeRule } from './safe-commands.js';

/** Why a command is not known to be safe: the rule to report and the words that name what asked. */
export interface Failure {
  readonly rule: ExplainRuleId;
  readonly words: string;
  /** An argument the rules deny (an option that runs a program): a remembered rule does not override it. */
  readonly denied?: boolean;
}

// Options only: `rm version` would delete a file called version.
const VERSION_WORDS = new Set(['--version', '-V', '-v', '--help', '-h', '-version']);
const PATH_FAILURE: Record<Exclude<Where, 'inside'>, ExplainRuleId> = {
  outside: 'outside-workspace',
  credentials: 'reads-credentials',
  protected: 'write-elsewhere',
};

/** Undefined when `argv` is known to be safe, else why not. */
export function matchSafe(argv: readonly Arg[], place: Place, hops = 0): Failure | undefined {
  const head = argv[0];
  if (!head || !head.literal || hops > 8) return { rule: 'not-known-safe', words: head?.value ?? '' };
  const name = programName(head.value, place);
  if (name === undefined) return { rule: 'outside-workspace', words: head.value };
  const rule = Object.hasOwn(SAFE_COMMANDS, name) ? SAFE_COMMANDS[name] : undefined;
  if (argv.length === 2 && VERSION_WORDS.has((argv[1] as Arg).value) && (rule || VERSION_ONLY.has(name))) return undefined;
  if (!rule) return { rule: 'not-known-safe', words: name };
  return matchRule(rule, argv.slice(1), place, [name], hops);
}

function matchRule(rule: SafeRule, args: readonly Arg[], place: Place, words: string[], hops: number): Failure | undefined {
  const fail = (extra?: Arg): Failure => ({ rule: 'not-known-safe', words: [...words, ...(extra ? [extra.value] : [])].join(' ') });
  let i = 0;
  while (rule.leading && i < args.length && (args[i] as Arg).value.startsWith('-')) {
    const option = args[i] as Arg;
    const kind = Object.hasOwn(rule.leading, option.value) ? rule.leading[option.value] : undefined;
    if (!kind) return fail(option);
    if (kind === 'path') {
      const value = args[i + 1];
      const where = value ? whereIs(value, place, false) : 'outside';
      if (where !== 'inside') return { rule: PATH_FAILURE[where], words: words.join(' ') };
    }
    i += kind === 'flag' ? 1 : 2;
  }
  const rest = args.slice(i);
  if (rule.sub) {
    const first = rest[0];
    const key = first?.literal ? first.value : first ? undefined : '';
    const subRule = key !== undefined && Object.hasOwn(rule.sub, key) ? rule.sub[key] : undefined;
    if (!subRule) return fail(first);
    return matchRule(subRule, rest.slice(1), place, first ? [...words, first.value] : words, hops);
  }
  if (rule.runs) {
    if (!rest.length || (rest[0] as Arg).value.startsWith('-')) return fail(rest[0]);
    return matchSafe(rest, place, hops + 1);
  }
  return matchLeaf(rule, rest, place, words, fail);
}

function matchLeaf(
  rule: SafeRule,
  args: readonly Arg[],
  place: Place,
  words: string[],
  fail: (extra?: Arg) => Failure,
): Failure | undefined {
  const o = getopt(args, { shortArg: rule.shortArg ?? '', longArg: rule.longArg ?? [] });
  const denied = args.find(
    (a) =>
      rule.denyWords?.includes(a.value) ||
      (/^-[^-]/.test(a.value) && [...(rule.denyShort ?? '')].some((c) => shortOptions(a.value, rule.shortArg ?? '').includes(c))) ||
      (a.value.startsWith('--') && isDeniedLong(a.value, rule.denyLong ?? [])),
  );
  if (denied || rule.denyIf?.(args)) return { ...fail(denied), denied: true };
  if (rule.onlyOptions) {
    const allowed = rule.onlyOptions;
    const other = optionWords(args).find((a) => !allowed.includes(a.value.replace(/=.*$/, '')));
    if (other) return fail(other);
  }
  const kind = rule.operands ?? 'read';
  if (kind === 'none' && o.operands.length) return fail(o.operands[0]);
  if (rule.maxOperands !== undefined && o.operands.length > rule.maxOperands) return fail(o.operands[rule.maxOperands]);
  if (rule.check && !rule.check(args)) return fail();
  if (kind === 'text') return undefined;
  const patternGiven = args.some((a) => /^(-[ef]|--regexp|--file)(=|$)/.test(a.value));
  const files = rule.pattern && !patternGiven ? o.operands.slice(1) : o.operands;
  const checked = new Set<Arg>();
  if (kind === 'read' || kind === 'write') {
    for (const a of files) {
      checked.add(a);
      const where = whereIs(a, place, kind === 'write');
      if (where !== 'inside')
        return { rule: kind === 'write' && where !== 'credentials' ? 'write-elsewhere' : PATH_FAILURE[where], words: words.join(' ') };
    }
  }
  for (const a of args) {
    if (checked.has(a) || (rule.pattern && a === o.operands[0] && !patternGiven)) continue;
    const where = wherePathLike(a, place);
    if (where !== 'inside') return { rule: PATH_FAILURE[where], words: words.join(' ') };
  }
  return undefined;
}

/**
 * Where an argument that looks like a path points (`ARG`, `--option=ARG`, `NAME=ARG`): any argument
 * that looks like one must stay in the workspace. `inside` when it does not look like a path.
 */
export function wherePathLike(a: Arg, place: Place): Where {
  const eq = a.value.indexOf('=');
  const value = eq >= 0 ? a.value.slice(eq + 1) : a.value.startsWith('-') ? '' : a.value;
  return value && looksLikePath(value) ? whereIs({ ...a, value }, place, false) : 'inside';
}

/** The short option letters of one cluster, up to the first letter that takes a value. */
function shortOptions(cluster: string, shortArg: string): string {
  let letters = '';
  for (const c of cluster.slice(1)) {
    letters += c;
    if (shortArg.includes(c)) break;
  }
  return letters;
}

function isDeniedLong(option: string, denied: readonly string[]): boolean {
  const name = option.slice(2).replace(/=.*$/, '');
  return name.length > 0 && denied.some((d) => d === name || (name.length >= 3 && d.startsWith(name)));
}

/** The options among `args`, before `--`. */
function optionWords(args: readonly Arg[]): Arg[] {
  const end = args.findIndex((a) => a.value === '--');
  return (end < 0 ? args : args.slice(0, end)).filter((a) => a.value.startsWith('-') && a.value !== '-');
}
