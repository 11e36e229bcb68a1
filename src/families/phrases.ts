/**
 * A tool call as the words a person reads, in the chat and in a permission card: a verb (base form)
 * and the rest of the sentence, with the file it names, if any, so that the line can open it. Each
 * family says how its tools read (its `phrases`); these are the shapes they share.
 */

/** What a call does, as a verb (base form) and the rest of the sentence. */
export interface Phrase {
  verb: string;
  rest: string;
  path?: string;
  line?: number;
}

export type PhraseInput = Record<string, unknown>;
export type Describe = (input: PhraseInput) => Phrase;

const MAX_ARGUMENT = 60;

/** One line, at most `max` characters. */
export function shorten(value: string, max = MAX_ARGUMENT): string {
  const flat = value.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export const str = (input: PhraseInput, key: string): string | undefined => {
  const value = input[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
export const num = (input: PhraseInput, key: string): number | undefined => {
  const value = input[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};
export const quoted = (value: string | undefined) => (value === undefined ? '' : `"${shorten(value)}"`);

export const lineSuffix = (line?: number, end?: number) =>
  line === undefined ? '' : end !== undefined && end !== line ? `:${line}-${end}` : `:${line}`;

/** `verb path[:line[-end]] suffix`, the path clickable. */
export const onFile =
  (verb: string, options: { before?: string; after?: string; key?: string; line?: string; end?: string } = {}): Describe =>
  (input) => {
    const path = str(input, options.key ?? 'path');
    const before = options.before ? `${options.before} ` : '';
    const after = options.after ? ` ${options.after}` : '';
    if (!path) return { verb, rest: `${before}a file${after}`.trim() };
    const line = options.line ? num(input, options.line) : undefined;
    const end = options.end ? num(input, options.end) : undefined;
    return { verb, rest: `${before}${path}${lineSuffix(line, end)}${after}`, path, line };
  };

export const fixed =
  (verb: string, rest: string): Describe =>
  () => ({ verb, rest });

export const named =
  (verb: string, what: string, key: string): Describe =>
  (input) => ({ verb, rest: str(input, key) ? `${what} ${quoted(str(input, key))}` : what });
