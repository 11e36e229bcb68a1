/**
 * Words → arguments: what the shell will pass for each word (quote removal, brace expansion), and
 * whether that is known before it runs (no expansion, substitution or glob).
 */
import type { Command, Word, WordPart } from 'unbash';

/** Brace expansion is applied up to this many words; beyond that the word counts as non-literal. */
const MAX_BRACE_WORDS = 256;

export interface Arg {
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

export function wordToArgs(word: Word): Arg[] {
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

export function commandArgs(cmd: Command): Arg[] {
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
