import { ToolError } from '../contract/index.js';

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
