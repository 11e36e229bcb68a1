import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHunks, hunksOf, reviewed, segmentsOf, type HunkDecision } from './hunks.js';

/** Texts made of a few distinct lines, with \n or \r\n ends and sometimes no last line end: diffs with many hunks. */
const text = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'dd', '', ' x'), { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, end, last]) => lines.join(end) + (last && lines.length > 0 ? end : ''));

describe('hunks of a proposed change', () => {
  it('every choice of hunks gives the file with exactly those applied: all is the proposal, none is the file byte for byte', () => {
    fc.assert(
      fc.property(text, text, fc.array(fc.boolean(), { maxLength: 20 }), (original, proposed, picks) => {
        const segments = segmentsOf(original, proposed);
        const hunks = hunksOf(segments);
        expect(applyHunks(segments, () => true)).toBe(proposed);
        expect(applyHunks(segments, () => false)).toBe(original);
        expect(hunks.length === 0).toBe(original === proposed);
        // One hunk at a time: its lines change and the rest stay as the file has them.
        const take = (h: number) => picks[h - 1] ?? false;
        const chosen = applyHunks(segments, take);
        const decisions: HunkDecision[] = hunks.map((h) => (take(h.hunk) ? 'accepted' : 'rejected'));
        expect(reviewed(segments, decisions).text).toBe(chosen);
        // Applying the rest afterwards reaches the proposal.
        const rest = segmentsOf(chosen, proposed);
        expect(applyHunks(rest, () => true)).toBe(proposed);
      }),
      { numRuns: 500 },
    );
  });

  it('numbers hunks in file order with their lines in the file and in the proposal', () => {
    const segments = segmentsOf('one\ntwo\nthree\nfour\n', 'one\nTWO\nthree\nfour\nfive\n');
    expect(hunksOf(segments)).toEqual([
      { hunk: 1, oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
      { hunk: 2, oldStart: 5, oldLines: 0, newStart: 5, newLines: 1 },
    ]);
    // With the first rejected, the review shows the second where it now is.
    expect(reviewed(segments, ['rejected', 'pending'])).toEqual({
      text: 'one\ntwo\nthree\nfour\nfive\n',
      hunks: [{ hunk: 2, line: 5, added: 1, removed: 0, decision: 'pending' }],
    });
  });
});
