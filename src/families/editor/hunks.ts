/**
 * A proposed change to one file cut into hunks the person accepts or rejects one by one (issue 30).
 * The cut is jsdiff's line diff; a hunk is a run of removed and added lines between unchanged ones.
 * Applying any choice of hunks is exact: what a rejected hunk covers stays byte for byte.
 */
import { diffLines } from 'diff';
import { splitLines } from '../../commands/text.js';

/** A stretch of the file: unchanged text, or a hunk (what the file has there, and what the proposal puts there). */
type Segment = { same: string } | { old: string; new: string };

export type HunkDecision = 'accepted' | 'rejected' | 'pending';

export interface Hunk {
  /** 1-based, in file order. */
  hunk: number;
  /** Where it is in the file now: its first line, and how many lines it replaces (0: it only adds, before oldStart). */
  oldStart: number;
  oldLines: number;
  /** Where it is in the proposed file, and how many lines it puts there. */
  newStart: number;
  newLines: number;
}

/** The segments of a change from `original` to `proposed`. */
export function segmentsOf(original: string, proposed: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of diffLines(original, proposed)) {
    const last = segments.at(-1);
    if (!part.added && !part.removed) segments.push({ same: part.value });
    else if (last && 'old' in last) {
      if (part.added) last.new += part.value;
      else last.old += part.value;
    } else segments.push(part.added ? { old: '', new: part.value } : { old: part.value, new: '' });
  }
  return segments;
}

/** Lines of a stretch of text (a final line break starts no other line; none at all is 0). */
const lineCount = (text: string): number => splitLines(text).length;

/** The hunks of a change, numbered in file order. */
export function hunksOf(segments: readonly Segment[]): Hunk[] {
  const hunks: Hunk[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const segment of segments) {
    if ('same' in segment) {
      const n = lineCount(segment.same);
      oldLine += n;
      newLine += n;
      continue;
    }
    const oldLines = lineCount(segment.old);
    const newLines = lineCount(segment.new);
    hunks.push({ hunk: hunks.length + 1, oldStart: oldLine, oldLines, newStart: newLine, newLines });
    oldLine += oldLines;
    newLine += newLines;
  }
  return hunks;
}

/** The file with the hunks `take` says yes to applied, and the rest as the file has them. */
export function applyHunks(segments: readonly Segment[], take: (hunk: number) => boolean): string {
  let text = '';
  let hunk = 0;
  for (const segment of segments) {
    if ('same' in segment) text += segment.same;
    else text += take(++hunk) ? segment.new : segment.old;
  }
  return text;
}

/**
 * What a review shows with the decisions so far: the file with the accepted and undecided hunks applied
 * (a rejected one is taken out), and where each hunk shown starts in it.
 */
export function reviewed(
  segments: readonly Segment[],
  decisions: readonly HunkDecision[],
): { text: string; hunks: { hunk: number; line: number; added: number; removed: number; decision: 'accepted' | 'pending' }[] } {
  const hunks: { hunk: number; line: number; added: number; removed: number; decision: 'accepted' | 'pending' }[] = [];
  let text = '';
  let line = 1;
  let hunk = 0;
  for (const segment of segments) {
    if ('same' in segment) {
      text += segment.same;
      line += lineCount(segment.same);
      continue;
    }
    const decision = decisions[hunk++] ?? 'pending';
    if (decision === 'rejected') {
      text += segment.old;
      line += lineCount(segment.old);
      continue;
    }
    hunks.push({ hunk, line, added: lineCount(segment.new), removed: lineCount(segment.old), decision });
    text += segment.new;
    line += lineCount(segment.new);
  }
  return { text, hunks };
}

export type { Segment };
