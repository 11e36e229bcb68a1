/**
 * The scripted shell's reading of a command line, with a real Bash parser (`unbash`, as the
 * dangerous-command check uses): commands joined by `;` `&&` `||`, words with quotes, backslashes,
 * `$VAR`, `${VAR}`, `$?` and `~`. What the simulated shell cannot run (pipes, redirections,
 * substitutions, compound commands, background jobs) is a ShellSyntaxError saying so.
 */
import { parse, type Command, type Word, type WordPart } from 'unbash';

export type Part = { text: string } | { variable: string };
export interface ShellWord {
  parts: Part[];
  quoted: boolean;
}
export type Operator = ';' | '&&' | '||';
export interface Segment {
  /** How this command joins the previous one (';' for the first). */
  op: Operator;
  words: ShellWord[];
  raw: string;
}

export class ShellSyntaxError extends Error {}

const unsupported = (what: string): ShellSyntaxError => new ShellSyntaxError(`'${what}' is not supported by the simulated shell`);

/** Bash's wording for what the parser reports. */
function syntaxError(message: string): ShellSyntaxError {
  if (message === 'unterminated single quote') return new ShellSyntaxError("unexpected EOF while looking for matching `''");
  if (message === 'unterminated double quote') return new ShellSyntaxError('unexpected EOF while looking for matching `"\'');
  const token = /^unexpected token '(.+)'$/.exec(message)?.[1] ?? (/^expected command after/.test(message) ? 'newline' : undefined);
  return new ShellSyntaxError(token ? `syntax error near unexpected token \`${token}'` : `syntax error: ${message}`);
}

/** Split a command line into the commands it runs, in order, with how each joins the one before. */
export function parseLine(line: string): Segment[] {
  const script = parse(line);
  const error = script.errors?.[0];
  if (error) throw syntaxError(error.message);
  const segments: Segment[] = [];
  for (const statement of script.commands) {
    if (statement.background) throw unsupported('&');
    const node = statement.command;
    if (node.type === 'Command') segments.push(segment(line, node, ';'));
    else if (node.type === 'AndOr') {
      node.commands.forEach((command, i) => {
        if (command.type !== 'Command') throw unsupportedNode(line, command);
        segments.push(segment(line, command, i === 0 ? ';' : node.operators[i - 1]!));
      });
    } else throw unsupportedNode(line, node);
  }
  return segments;
}

function unsupportedNode(line: string, node: { type: string; pos: number; end: number }): ShellSyntaxError {
  if (node.type === 'Pipeline') return unsupported('|');
  if (node.type === 'Subshell') return unsupported('(');
  return unsupported(line.slice(node.pos, node.end).split(/\s/)[0]!);
}

function segment(line: string, command: Command, op: Operator): Segment {
  const prefix = command.prefix[0];
  if (prefix) throw unsupported(prefix.type === 'Assignment' ? prefix.text : prefix.operator);
  const words: ShellWord[] = [];
  for (const item of [...(command.name ? [command.name] : []), ...command.suffix]) {
    if (item.type !== 'Word') throw unsupported('operator' in item ? item.operator : item.type);
    words.push(word(item));
  }
  return { op, words, raw: line.slice(command.pos, command.end).trim() };
}

function word(w: Word): ShellWord {
  if (!w.parts) {
    // A leading ~ alone or before a slash is the home directory.
    if (w.text === '~' || w.text.startsWith('~/')) return { parts: [{ variable: 'HOME' }, { text: w.value.slice(1) }], quoted: true };
    return { parts: [{ text: w.value }], quoted: false };
  }
  const out: ShellWord = { parts: [], quoted: false };
  for (const part of w.parts) addPart(part, out);
  return out;
}

function addPart(part: WordPart, out: ShellWord): void {
  switch (part.type) {
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      out.quoted = true;
      out.parts.push({ text: part.value });
      return;
    case 'DoubleQuoted':
      out.quoted = true;
      out.parts.push({ text: '' });
      for (const child of part.parts) addPart(child as WordPart, out);
      return;
    case 'SimpleExpansion':
      out.parts.push({ variable: part.text.slice(1) });
      return;
    case 'ParameterExpansion':
      if (part.operation || part.index !== undefined) throw unsupported(part.text);
      out.parts.push({ variable: part.parameter });
      return;
    case 'CommandExpansion':
      throw unsupported(part.text.startsWith('`') ? '`' : '$(');
    case 'ArithmeticExpansion':
    case 'ProcessSubstitution':
      throw unsupported(part.text);
    default:
      // Literal text; globs and brace lists stay as written (the simulated shell does not expand them).
      out.parts.push({ text: 'value' in part && typeof part.value === 'string' ? part.value : part.text });
  }
}
