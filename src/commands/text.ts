import { ToolError } from '../contract/index.js';
import type { Position, TextEdit } from '../families/index.js';

/** Lines of a text as an editor counts them: a trailing newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The number of lines an editor shows for a text (an empty file shows one empty line). */
export function lineCount(text: string): number {
  return Math.max(1, splitLines(text).length);
}

/**
 * Pick lines startLine..endLine (1-based, inclusive). endLine past the end is clamped, as editors do;
 * a start past the end or an end before the start is RANGE_INVALID.
 */
export function sliceLines(text: string, path: string, startLine?: number, endLine?: number) {
  const lines = splitLines(text);
  const total = lines.length;
  if (startLine === undefined && endLine === undefined) {
    return { content: text, startLine: 1, endLine: total, totalLines: total };
  }
  const start = startLine ?? 1;
  const end = Math.min(endLine ?? total, total);
  if (start > Math.max(total, 1)) {
    throw new ToolError('RANGE_INVALID', `startLine ${start} is past the end of ${path}, which has ${total} lines.`, { totalLines: total });
  }
  if (endLine !== undefined && endLine < start) {
    throw new ToolError('RANGE_INVALID', `endLine ${endLine} is before startLine ${start}.`, { totalLines: total });
  }
  return { content: lines.slice(start - 1, end).join('\n'), startLine: start, endLine: end, totalLines: total };
}

/** A text's version as the workspace gives a file's: 16 hex digits of the SHA-256 of its UTF-8 bytes (Web Crypto, browser-safe). */
export async function textVersion(text: string): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The edit that replaces whole lines startLine..endLine (1-based, inclusive; endLine = startLine - 1
 * inserts before startLine) of a text by newText, as editor positions: each line goes with its line
 * break, so the lines around keep theirs. Throws RANGE_INVALID for lines past the end.
 */
export function lineReplacement(text: string, path: string, startLine: number, endLine: number, replacement: string): TextEdit {
  const lines = splitLines(text);
  const total = lines.length;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // newText's lines take the text's line breaks.
  const newText = replacement.replace(/\r?\n/g, eol);
  // An empty file shows one empty line, which may be replaced.
  if (total === 0 && startLine === 1 && endLine <= 1) {
    return { start: { line: 1, column: 1 }, end: { line: 1, column: 1 }, text: newText };
  }
  if (startLine > total + 1) {
    throw new ToolError('RANGE_INVALID', `startLine ${startLine} is past the end of ${path}, which has ${total} lines.`, {
      lineCount: total,
    });
  }
  if (endLine < startLine - 1) throw new ToolError('RANGE_INVALID', `endLine ${endLine} is before startLine ${startLine}.`);
  if (endLine > total) {
    throw new ToolError('RANGE_INVALID', `endLine ${endLine} is past the end of ${path}, which has ${total} lines.`, { lineCount: total });
  }
  const endsWithBreak = total === 0 || /\n$/.test(text);
  const endOf = (line: number) => ({ line, column: lines[line - 1]!.length + 1 });
  // A line followed by another physical line (the last one too when the text ends with a line break).
  const followed = (line: number) => line < total || endsWithBreak;
  if (endLine < startLine) {
    if (newText === '') return { start: { line: startLine, column: 1 }, end: { line: startLine, column: 1 }, text: '' };
    if (followed(startLine - 1) || startLine === 1) {
      return { start: { line: startLine, column: 1 }, end: { line: startLine, column: 1 }, text: newText + eol };
    }
    // Appending after a last line without a line break.
    return { start: endOf(total), end: endOf(total), text: eol + newText };
  }
  if (followed(endLine)) {
    return { start: { line: startLine, column: 1 }, end: { line: endLine + 1, column: 1 }, text: newText === '' ? '' : newText + eol };
  }
  // Through the last line, which has no line break: deleting takes the line break before it.
  if (newText === '' && startLine > 1) return { start: endOf(startLine - 1), end: endOf(endLine), text: '' };
  return { start: { line: startLine, column: 1 }, end: endOf(endLine), text: newText };
}

/** The offset of an editor position in a text (columns past the end of a line clamp to it). */
export function offsetAt(text: string, position: Position): number {
  let offset = 0;
  for (let line = 1; line < position.line; line++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  const end = lineEnd < 0 ? text.length : text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
  return Math.min(offset + position.column - 1, end);
}

/** A text with an edit applied. */
export function applyTextEdit(text: string, edit: TextEdit): string {
  return text.slice(0, offsetAt(text, edit.start)) + edit.text + text.slice(offsetAt(text, edit.end));
}
