import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTextEdit, lineReplacement, splitLines, textVersion } from './text.js';

const line = fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n]/g, 'x'));

describe('lineReplacement', () => {
  it('replaces exactly lines start..end and keeps every other line and line break', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        fc.boolean(),
        fc.constantFrom('\n', '\r\n'),
        fc.array(line, { maxLength: 4 }),
        fc.nat(),
        fc.nat(),
        (lines, trailingBreak, eol, newLines, a, b) => {
          const text = lines.join(eol) + (trailingBreak && lines.length > 0 ? eol : '');
          const total = splitLines(text).length;
          const startLine = 1 + (a % (total + 1));
          const endLine = startLine - 1 + (b % (total - startLine + 2));
          const newText = newLines.join('\n');
          const after = applyTextEdit(text, lineReplacement(text, 'f', startLine, endLine, newText));
          const before = splitLines(text);
          const kept = [...before.slice(0, startLine - 1), ...(newText === '' ? [] : newLines), ...before.slice(endLine)];
          const breakAtEnd = kept.length > 0 && text.endsWith('\n') ? (text.endsWith('\r\n') ? '\r\n' : '\n') : '';
          // Line by line as the editor holds it (newText's lines take the text's line breaks).
          expect(after).toBe(kept.join(text.includes('\r\n') ? '\r\n' : '\n') + breakAtEnd);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses lines past the end', () => {
    expect(() => lineReplacement('a\nb\n', 'f.txt', 4, 4, 'x')).toThrow(/past the end of f.txt/);
    expect(() => lineReplacement('a\nb\n', 'f.txt', 2, 3, 'x')).toThrow(/endLine 3/);
    expect(() => lineReplacement('a\nb\n', 'f.txt', 2, 0, 'x')).toThrow(/before startLine/);
  });

  it('versions a text as the workspace versions a file (SHA-256, 16 hex digits)', async () => {
    // sha256("hello\n") = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
    expect(await textVersion('hello\n')).toBe('5891b5b522d5df08');
  });
});
