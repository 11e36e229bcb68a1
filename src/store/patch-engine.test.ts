import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLines } from '../commands/text.js';
import type { PatchOperation } from '../families/file/tools.js';
import { codeOf } from '../contract/test-helpers.js';
import { applyPatch } from './patch-engine.js';

const base = 'one\ntwo\nthree\nfour\n';
const apply = (text: string, ...ops: PatchOperation[]) => applyPatch(text, ops);
const refusal = (text: string, ...ops: PatchOperation[]) => codeOf(Promise.resolve().then(() => applyPatch(text, ops)));

describe('PatchEngine', () => {
  it('inserts before a line, or at the end with totalLines + 1', () => {
    expect(apply(base, { type: 'insert', line: 1, content: 'zero' })).toBe('zero\none\ntwo\nthree\nfour\n');
    expect(apply(base, { type: 'insert', line: 3, content: 'a\nb\n' })).toBe('one\ntwo\na\nb\nthree\nfour\n');
    expect(apply(base, { type: 'insert', line: 5, content: 'five' })).toBe(`${base}five\n`);
  });

  it('deletes, replaces and appends lines', () => {
    expect(apply(base, { type: 'delete', startLine: 2, endLine: 3 })).toBe('one\nfour\n');
    expect(apply(base, { type: 'replace', startLine: 2, endLine: 2, content: 'TWO\n2' })).toBe('one\nTWO\n2\nthree\nfour\n');
    expect(apply(base, { type: 'replace', startLine: 1, endLine: 4, content: '' })).toBe('');
    expect(apply(base, { type: 'append', content: 'five' })).toBe(`${base}five\n`);
    expect(apply('', { type: 'append', content: 'first' })).toBe('first\n');
  });

  it('replaces text that occurs exactly once, verbatim', () => {
    expect(apply(base, { type: 'replace_text', oldText: 'wo\nthr', newText: 'WO THR' })).toBe('one\ntWO THRee\nfour\n');
  });

  it('refuses a replace_text anchor that is missing or ambiguous, saying how many times it occurs', async () => {
    expect(await refusal(base, { type: 'replace_text', oldText: 'five', newText: 'x' })).toBe('RANGE_INVALID');
    expect(() => apply(base, { type: 'replace_text', oldText: 'o', newText: 'x' })).toThrow(/occurs 3 times/);
    expect(() => apply('aaa', { type: 'replace_text', oldText: 'aa', newText: 'b' })).toThrow(/occurs 2 times/);
  });

  it('applies every operation against the base version, in one go', () => {
    const out = apply(
      base,
      { type: 'append', content: 'five' },
      { type: 'delete', startLine: 1, endLine: 1 },
      { type: 'replace_text', oldText: 'three', newText: '3' },
      { type: 'insert', line: 2, content: 'one-and-a-half' },
    );
    expect(out).toBe('one-and-a-half\ntwo\n3\nfour\nfive\n');
  });

  it('keeps insertions at one place in the order given', () => {
    expect(apply(base, { type: 'insert', line: 2, content: 'a' }, { type: 'insert', line: 2, content: 'b' })).toBe(
      'one\na\nb\ntwo\nthree\nfour\n',
    );
  });

  it('refuses ranges outside the base version and overlapping operations, applying none', async () => {
    expect(await refusal(base, { type: 'delete', startLine: 4, endLine: 5 })).toBe('RANGE_INVALID');
    expect(await refusal(base, { type: 'insert', line: 6, content: 'x' })).toBe('RANGE_INVALID');
    expect(await refusal(base, { type: 'replace', startLine: 3, endLine: 2, content: 'x' })).toBe('RANGE_INVALID');
    expect(await refusal('', { type: 'delete', startLine: 1, endLine: 1 })).toBe('RANGE_INVALID');
    expect(
      await refusal(base, { type: 'delete', startLine: 1, endLine: 2 }, { type: 'replace', startLine: 2, endLine: 3, content: 'x' }),
    ).toBe('RANGE_INVALID');
    expect(await refusal(base, { type: 'delete', startLine: 1, endLine: 3 }, { type: 'insert', line: 2, content: 'x' })).toBe(
      'RANGE_INVALID',
    );
    expect(await refusal(base, { type: 'replace_text', oldText: 'two', newText: 'x' }, { type: 'delete', startLine: 2, endLine: 2 })).toBe(
      'RANGE_INVALID',
    );
    expect(() => apply(base, { type: 'append', content: 'x' }, { type: 'delete', startLine: 9, endLine: 9 })).toThrow(/operations\[1\]/);
  });

  it("keeps the file's line breaks: CRLF, and no final line break", () => {
    expect(apply('a\r\nb\r\n', { type: 'insert', line: 2, content: 'x\ny' })).toBe('a\r\nx\r\ny\r\nb\r\n');
    expect(apply('a\nb', { type: 'append', content: 'c' })).toBe('a\nb\nc');
    expect(apply('a\nb', { type: 'delete', startLine: 2, endLine: 2 })).toBe('a');
    expect(apply('a\nb', { type: 'replace', startLine: 2, endLine: 2, content: 'B\n' })).toBe('a\nB');
    expect(apply('a\nb', { type: 'replace', startLine: 1, endLine: 1, content: 'A' }, { type: 'delete', startLine: 2, endLine: 2 })).toBe(
      'A',
    );
  });

  it('property: line operations do to the lines what an array splice does', () => {
    const line = fc.stringMatching(/^[a-z ]{0,6}$/);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(line, { maxLength: 4 }), fc.nat(), fc.nat(), (lines, insert, a, b) => {
        const text = lines.map((l) => `${l}\n`).join('');
        const n = lines.length;
        const at = (a % (n + 1)) + 1;
        const content = insert.map((l) => `${l}\n`).join('');
        expect(splitLines(apply(text, { type: 'insert', line: at, content }))).toEqual([
          ...lines.slice(0, at - 1),
          ...insert,
          ...lines.slice(at - 1),
        ]);
        if (n === 0) return;
        const start = (a % n) + 1;
        const end = start + (b % (n - start + 1));
        const replaced = apply(text, { type: 'replace', startLine: start, endLine: end, content });
        expect(splitLines(replaced)).toEqual([...lines.slice(0, start - 1), ...insert, ...lines.slice(end)]);
      }),
      { numRuns: 300 },
    );
  });
});
