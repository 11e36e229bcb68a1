/**
 * What a shell receives for typed text, with the line editing that bash's readline and a terminal's
 * canonical mode do alike: DEL erases a character, Ctrl-W a word, Ctrl-U the line, Ctrl-C drops it,
 * CR or LF submit it; Ctrl-D, Ctrl-Z and Ctrl-\ leave it as it is. So `rm -rf x`, DEL, then `/` runs `rm -rf /`, and that is what gets judged.
 * Every other control key (Tab completes a name, ESC sequences recall history or edit, Ctrl-V quotes
 * the next key, Ctrl-Y yanks, Ctrl-H erases in one and not the other) is not followed: text
 * holding one is judged as unreadable. Agent shells keep no history either (shell-integration.ts).
 * Browser-safe.
 */

import { forEachChild, parse } from 'unbash';
import type { SyntaxNode } from 'unbash';

export interface TypedLines {
  /** The lines submitted (without their CR/LF), in order. */
  lines: string[];
  /** What waits at the prompt afterwards. */
  rest: string;
  /** The first control character this does not follow, as `\uXXXX`, or undefined. */
  unfollowed: string | undefined;
}

/** Apply `text` to the line `pending` already holds. */
export function typedLines(pending: string, text: string): TypedLines {
  const lines: string[] = [];
  let line = pending;
  let unfollowed: string | undefined;
  for (const ch of text) {
    if (ch === '\r' || ch === '\n') {
      lines.push(line);
      line = '';
    } else if (ch === '\u007f') line = [...line].slice(0, -1).join('');
    else if (ch === '\u0017') line = eraseWord(line);
    else if (ch === '\u0015' || ch === '\u0003') line = '';
    // Ctrl-D (end of input on an empty line: the shell exits), Ctrl-Z and Ctrl-\ (signals bash ignores at its prompt) leave the line.
    else if (ch === '\u0004' || ch === '\u001a' || ch === '\u001c') continue;
    else if (/[\u0000-\u001f\u0080-\u009f]/.test(ch)) {
      unfollowed ??= `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
      line += ch;
    } else line += ch;
  }
  return { lines, rest: line, unfollowed };
}

/** Ctrl-W as the terminal does it: blanks before the cursor, then the word before them. */
function eraseWord(line: string): string {
  return line.replace(/\s*$/, '').replace(/\S*$/, '');
}

/** Held text longer than this is judged as it is: nobody types a command that long by hand. */
const MAX_HELD = 64 * 1024;

/**
 * Whether bash, given `text` as submitted lines, may still be waiting for more before it runs any of
 * it: a line ending in a backslash, a here-document not closed yet, an unterminated quote. Text sent
 * next is judged together with it (and alone too: where bash did run it, the next line is its own).
 */
export function mightContinue(text: string): boolean {
  if (text.length > MAX_HELD) return false;
  if (/(^|[^\\])(\\\\)*\\$/.test(text)) return true;
  let script: ReturnType<typeof parse>;
  try {
    script = parse(text);
  } catch {
    return false;
  }
  if ((script as { errors?: { message: string }[] }).errors?.some((e) => /^unterminated/.test(e.message))) return true;
  let open = false;
  const visit = (node: SyntaxNode) => {
    if (node.type === 'HereDoc' && !(node as { closing?: unknown }).closing) open = true;
    forEachChild(node, visit);
  };
  visit(script);
  return open;
}
