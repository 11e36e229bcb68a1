/**
 * What a shell without line editing (agent shells run `bash --noediting`) receives for typed text:
 * the terminal's own line editing (canonical mode) applies first. DEL erases a character, Ctrl-W a
 * word, Ctrl-U the line; Ctrl-C, Ctrl-\ and Ctrl-Z drop the line; CR or LF submit it; Ctrl-D adds
 * nothing. So `rm -rf x`, DEL × 1, then `/` runs `rm -rf /`, and that is what gets judged. Other
 * control characters (Ctrl-V quoting the next key, ESC sequences that a line editor or a program
 * would act on, …) are not followed: text holding them is judged as unreadable. Browser-safe.
 */

export interface TypedLines {
  /** The lines submitted (without their CR/LF), in order. */
  lines: string[];
  /** What waits at the prompt afterwards. */
  rest: string;
  /** The first control character this does not follow, as `\uXXXX`, or undefined. */
  unfollowed: string | undefined;
}

const DROPS_LINE = new Set(['\u0003', '\u001c', '\u001a']);

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
    else if (ch === '\u0015' || DROPS_LINE.has(ch)) line = '';
    else if (ch === '\u0004') continue;
    else if (ch !== '\t' && /[\u0000-\u001f\u0080-\u009f]/.test(ch)) {
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
