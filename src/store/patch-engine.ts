/**
 * PatchEngine (TECHSPEC §6.8): apply an agent's patch operations to the text of one base version.
 * Pure and browser-safe; the ArtifactStore runs it inside a file's write queue, after checking that
 * the file is still at the patch's base version.
 *
 * Every operation refers to the base text: lines are 1-based and counted as editors count them
 * (a final line break does not start another line). Each operation becomes one replacement of a
 * character range of the base text; the ranges must not overlap (insertions at the same place keep
 * the order they were given in), and all are applied at once or none is (RANGE_INVALID).
 *
 * Line breaks: lines an operation inserts take the file's own line break (CRLF when its first line
 * break is CRLF); whether the file ends with a line break is kept as it was. replace_text inserts
 * newText verbatim.
 */
import { ToolError } from '../contract/index.js';
import type { PatchOperation } from '../families/file/tools.js';

interface Edit {
  start: number;
  end: number;
  text: string;
  /** Index of the operation, for ordering insertions at one place and for messages. */
  index: number;
  touchesEnd?: boolean;
}

interface Lines {
  /** Character offset where each line starts; starts[n] is the text's length. */
  starts: number[];
  /** Character offset where each line's content ends (before its line break). */
  ends: number[];
  count: number;
  eol: string;
  finalBreak: boolean;
}

function scanLines(text: string): Lines {
  const starts: number[] = [];
  const ends: number[] = [];
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    starts.push(from);
    if (nl < 0) {
      ends.push(text.length);
      break;
    }
    ends.push(nl > from && text[nl - 1] === '\r' ? nl - 1 : nl);
    from = nl + 1;
  }
  const count = starts.length;
  starts.push(text.length);
  const firstBreak = text.indexOf('\n');
  return {
    starts,
    ends,
    count,
    eol: firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : '\n',
    finalBreak: text === '' || text.endsWith('\n'),
  };
}

/** The lines of an operation's content: line breaks of either kind; one final line break is optional. */
function contentLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function rangeError(index: number, message: string, lines: Lines, extra: Record<string, unknown> = {}): ToolError {
  return new ToolError('RANGE_INVALID', `operations[${index}]: ${message}`, { operation: index, totalLines: lines.count, ...extra });
}

/**
 * Replace base lines [from, to) (0-based, half-open) by `replacement` lines. When the base's last line
 * has no line break and the edit reaches it, the result gets one there; `touchesEnd` tells applyPatch
 * to take it off again, so the file keeps its convention.
 */
function lineEdit(lines: Lines, from: number, to: number, replacement: string[], index: number): Edit {
  const { starts, count, eol, finalBreak } = lines;
  const touchesEnd = to === count && !finalBreak;
  const text = (touchesEnd && from === count ? eol : '') + replacement.map((l) => l + eol).join('');
  return { start: starts[from]!, end: starts[to]!, text, index, touchesEnd };
}

function countOccurrences(text: string, needle: string): { count: number; first: number } {
  let count = 0;
  let first = -1;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (count === 0) first = at;
    count++;
  }
  return { count, first };
}

function toEdit(text: string, lines: Lines, op: PatchOperation, index: number): Edit {
  const n = lines.count;
  const checkRange = (startLine: number, endLine: number) => {
    if (endLine < startLine) throw rangeError(index, `endLine ${endLine} is before startLine ${startLine}.`, lines);
    if (endLine > n) {
      throw rangeError(index, `endLine ${endLine} is past the end of the base version, which has ${n} lines.`, lines);
    }
  };
  switch (op.type) {
    case 'insert':
      if (op.line > n + 1) {
        throw rangeError(
          index,
          `line ${op.line} is past the end: the base version has ${n} lines, so insert at most at line ${n + 1} (the end).`,
          lines,
        );
      }
      return lineEdit(lines, op.line - 1, op.line - 1, contentLines(op.content), index);
    case 'append':
      return lineEdit(lines, n, n, contentLines(op.content), index);
    case 'delete':
      checkRange(op.startLine, op.endLine);
      return lineEdit(lines, op.startLine - 1, op.endLine, [], index);
    case 'replace':
      checkRange(op.startLine, op.endLine);
      return lineEdit(lines, op.startLine - 1, op.endLine, contentLines(op.content), index);
    case 'replace_text': {
      const { count, first } = countOccurrences(text, op.oldText);
      if (count !== 1) {
        const why = count === 0 ? 'does not occur in the base version' : `occurs ${count} times in the base version`;
        const next = count === 0 ? 're-read the file and copy the text exactly' : 'include more surrounding text so it occurs once';
        throw rangeError(index, `oldText ${why}; it must occur exactly once (${next}).`, lines, { matches: count });
      }
      return { start: first, end: first + op.oldText.length, text: op.newText, index };
    }
  }
}

/** Apply the operations to the base text; throws ToolError RANGE_INVALID without applying any when one is invalid. */
export function applyPatch(text: string, operations: readonly PatchOperation[]): string {
  const lines = scanLines(text);
  const edits = operations.map((op, i) => toEdit(text, lines, op, i));
  // Insertions (empty ranges) at a place go before a range starting there; otherwise the given order.
  edits.sort((a, b) => a.start - b.start || (a.end === a.start ? 0 : 1) - (b.end === b.start ? 0 : 1) || a.index - b.index);
  for (let i = 1; i < edits.length; i++) {
    const prev = edits[i - 1]!;
    const cur = edits[i]!;
    const overlaps = cur.start < prev.end || (cur.start === prev.start && prev.end > prev.start && cur.end > cur.start);
    if (overlaps) {
      const [a, b] = prev.index < cur.index ? [prev, cur] : [cur, prev];
      throw rangeError(b.index, `overlaps operations[${a.index}]; operations must change separate parts of the base version.`, lines);
    }
  }
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += text.slice(at);
  if (edits.some((e) => e.touchesEnd) && out.endsWith('\n')) out = out.slice(0, out.endsWith(lines.eol) ? -lines.eol.length : -1);
  return out;
}
