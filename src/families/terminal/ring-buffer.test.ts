import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalRingBuffer } from './ring-buffer.js';

const all = (b: TerminalRingBuffer): string[] => b.read({ lines: 1_000_000 }).lines;

describe('TerminalRingBuffer: line assembly', () => {
  it('\\r overwrites from column 0 (progress bars)', () => {
    const b = new TerminalRingBuffer();
    b.append('10%\r20%\r\n');
    expect(all(b)).toEqual(['20%']);
    b.append('downloading 100 files\rdone\n');
    expect(all(b)).toEqual(['20%', 'doneloading 100 files']);
  });

  it('\\v erases from the cursor to the end of the line (a spinner drawn, then cleared)', () => {
    const b = new TerminalRingBuffer();
    b.append('⠙\r\v\r\n> test\n⠙\r\v2 passed\n');
    b.append('downloading 100 files\r\vdone\n');
    b.append('abcdef\b\b\b\vXY\n');
    expect(all(b)).toEqual(['', '> test', '2 passed', 'done', 'abcXY']);
  });

  it('\\r\\n and \\n commit lines unchanged', () => {
    const b = new TerminalRingBuffer();
    b.append('a\r\nb\nc\r\n\r\n');
    expect(all(b)).toEqual(['a', 'b', 'c', '']);
    expect(b.cursor()).toBe(4);
  });

  it('\\b moves left and the next character overwrites; not past column 0', () => {
    const b = new TerminalRingBuffer();
    b.append('abc\b\bX\n');
    b.append('\b\b\bZ\n');
    b.append('ab\b \b\n'); // erase the last character as a shell does
    b.append('x😀\bY\n'); // \b steps over a surrogate pair
    expect(all(b)).toEqual(['aXc', 'Z', 'a ', 'xY']);
  });

  it('\\f moves right over the line; text written past its end leaves blanks before it', () => {
    const b = new TerminalRingBuffer({ maxLineLength: 8 });
    b.append('abcdef\r\f\fXY\n'); // overwrite in the middle
    b.append('ab\f\fc\n'); // past the end: blanks
    b.append('ab\f\f\n'); // moved, wrote nothing: nothing added
    b.append('abcdefgh\r\f\f\vZ\n'); // step over, erase the rest
    b.append('\f'.repeat(20) + 'x\n'); // not past the truncation point
    expect(all(b)).toEqual(['abXYef', 'ab  c', 'ab', 'abZ', '']);
    // bash redrawing its prompt after Ctrl-U: back to column 1, over the prompt, erase the rest.
    b.append('$ rm -rf /tmp/x\r\f\f\v');
    expect(b.read({ lines: 0 }).partial).toBe('$ ');
  });

  it('the uncommitted line is partial', () => {
    const b = new TerminalRingBuffer();
    b.append('line\n$ ech');
    expect(b.read({ lines: 10 })).toEqual({ lines: ['line'], partial: '$ ech', cursor: 1, dropped: 0, more: false });
    b.append('o hi');
    expect(b.read({ lines: 10, since: 1 })).toEqual({ lines: [], partial: '$ echo hi', cursor: 1, dropped: 0, more: false });
    b.append('\r\n');
    expect(b.read({ lines: 10, since: 1 })).toEqual({ lines: ['$ echo hi'], partial: '', cursor: 2, dropped: 0, more: false });
  });

  it('keeps tabs as characters', () => {
    const b = new TerminalRingBuffer();
    b.append('a\tb\n');
    expect(all(b)).toEqual(['a\tb']);
  });
});

describe('TerminalRingBuffer: caps', () => {
  it('keeps at most maxLines lines, the newest', () => {
    const b = new TerminalRingBuffer({ maxLines: 3 });
    b.append('1\n2\n3\n4\n5\n');
    expect(all(b)).toEqual(['3', '4', '5']);
    expect(b.cursor()).toBe(5);
    expect(b.read({ lines: 10, since: 0 })).toEqual({ lines: ['3', '4', '5'], partial: '', cursor: 5, dropped: 2, more: false });
  });

  it('keeps at most maxBytes (length + 1 per line)', () => {
    const b = new TerminalRingBuffer({ maxBytes: 10 });
    b.append('aaaa\nbbbb\n'); // 5 + 5 = 10: both fit
    expect(all(b)).toEqual(['aaaa', 'bbbb']);
    b.append('c\n'); // 12 > 10: evict aaaa
    expect(all(b)).toEqual(['bbbb', 'c']);
    expect(b.read({ lines: 5, since: 0 })).toMatchObject({ lines: ['bbbb', 'c'], dropped: 1, cursor: 3 });
  });

  it('truncates long lines to maxLineLength', () => {
    const b = new TerminalRingBuffer({ maxLineLength: 5 });
    b.append('0123456789\nabc\n');
    b.append('xxxxxxxx\rab\n');
    expect(all(b)).toEqual(['01234', 'abc', 'abxxx']);
    b.append('y'.repeat(100));
    expect(b.read({ lines: 1 }).partial).toBe('yyyyy');
  });

  it('counts a character outside the BMP as one column when truncating, never splitting it', () => {
    const b = new TerminalRingBuffer({ maxLineLength: 4 });
    b.append('abc😀x\nabcd😀\n');
    expect(all(b)).toEqual(['abc😀', 'abcd']);
  });

  it('overwrites a character outside the BMP as one column, however the output was chunked', () => {
    const whole = new TerminalRingBuffer();
    whole.append('😀a\rbc\n');
    const split = new TerminalRingBuffer();
    for (const chunk of ['😀a\rb', 'c\n']) split.append(chunk);
    expect(all(whole)).toEqual(['bc']);
    expect(all(split)).toEqual(['bc']);
  });
});

describe('TerminalRingBuffer: read', () => {
  it('reads the last N lines, and pages with since', () => {
    const b = new TerminalRingBuffer();
    b.append('a\nb\nc\nd\ne\n');
    expect(b.read({ lines: 2 })).toEqual({ lines: ['d', 'e'], partial: '', cursor: 5, dropped: 0, more: false });
    expect(b.read({ lines: 2, since: 0 })).toEqual({ lines: ['a', 'b'], partial: '', cursor: 2, dropped: 0, more: true });
    expect(b.read({ lines: 2, since: 2 })).toEqual({ lines: ['c', 'd'], partial: '', cursor: 4, dropped: 0, more: true });
    expect(b.read({ lines: 2, since: 4 })).toEqual({ lines: ['e'], partial: '', cursor: 5, dropped: 0, more: false });
    expect(b.read({ lines: 2, since: 5 })).toEqual({ lines: [], partial: '', cursor: 5, dropped: 0, more: false });
  });

  it('treats since beyond the cursor as the cursor', () => {
    const b = new TerminalRingBuffer();
    b.append('a\n');
    expect(b.read({ lines: 10, since: 99 })).toEqual({ lines: [], partial: '', cursor: 1, dropped: 0, more: false });
  });

  it('reports lines evicted after since as dropped and moves the cursor past them', () => {
    const b = new TerminalRingBuffer({ maxLines: 2 });
    b.append('a\nb\nc\nd\n');
    expect(b.read({ lines: 1, since: 1 })).toEqual({ lines: ['c'], partial: '', cursor: 3, dropped: 1, more: true });
  });
});

// Operations: sanitized text chunks interleaved with reads.
const text = fc
  .array(fc.constantFrom('a', 'bc', 'déf', '😀', '\t', '\n', '\r\n', '\r', '\b', '\f', '\v', 'xxxxxxxxxxxx'), { maxLength: 30 })
  .map((parts) => parts.join(''));
const options = fc.record({
  maxLines: fc.integer({ min: 1, max: 8 }),
  maxBytes: fc.integer({ min: 1, max: 60 }),
  maxLineLength: fc.integer({ min: 1, max: 20 }),
});

/** A reference model of committed lines: what a plain split on \n after assembly would give. */
function committedLines(chunks: string[], maxLineLength: number): string[] {
  const b = new TerminalRingBuffer({ maxLines: 1_000_000, maxBytes: 1e12, maxLineLength });
  for (const c of chunks) b.append(c);
  return all(b);
}

describe('TerminalRingBuffer: properties', () => {
  it('never holds more than maxLines lines or more than maxBytes', () => {
    fc.assert(
      fc.property(options, fc.array(text, { maxLength: 10 }), (opts, chunks) => {
        const b = new TerminalRingBuffer(opts);
        for (const c of chunks) {
          b.append(c);
          const lines = all(b);
          expect(lines.length).toBeLessThanOrEqual(opts.maxLines);
          expect(lines.reduce((n, l) => n + l.length + 1, 0)).toBeLessThanOrEqual(opts.maxBytes);
          for (const l of lines) expect([...l].length).toBeLessThanOrEqual(opts.maxLineLength);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reading on with the returned cursor never skips or repeats a line', () => {
    fc.assert(
      fc.property(
        options,
        fc.array(fc.tuple(text, fc.integer({ min: 1, max: 5 }), fc.nat({ max: 3 })), { maxLength: 15 }),
        (opts, steps) => {
          const b = new TerminalRingBuffer(opts);
          const expected = committedLines(
            steps.map(([t]) => t),
            opts.maxLineLength,
          );
          // Read after each append, a few pages each time, always continuing from the cursor.
          const seen: (string | null)[] = [];
          let cursor = 0;
          const readPage = (lines: number): void => {
            const r = b.read({ lines, since: cursor });
            for (let k = 0; k < r.dropped; k++) seen.push(null); // evicted before we read it
            seen.push(...r.lines);
            expect(r.cursor).toBe(cursor + r.dropped + r.lines.length);
            expect(r.more).toBe(r.cursor < b.cursor());
            cursor = r.cursor;
          };
          for (const [t, pageSize, pages] of steps) {
            b.append(t);
            for (let p = 0; p < pages; p++) readPage(pageSize);
          }
          while (cursor < b.cursor()) readPage(3);
          expect(seen.length).toBe(expected.length);
          seen.forEach((line, k) => {
            if (line !== null) expect(line).toBe(expected[k]);
          });
          // With room for everything, nothing is dropped.
          if (opts.maxLines >= expected.length && expected.reduce((n, l) => n + l.length + 1, 0) <= opts.maxBytes) {
            expect(seen).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a read without since returns exactly the last N committed lines', () => {
    fc.assert(
      fc.property(options, text, fc.integer({ min: 1, max: 10 }), (opts, t, n) => {
        const b = new TerminalRingBuffer(opts);
        b.append(t);
        const expected = committedLines([t], opts.maxLineLength);
        const r = b.read({ lines: n });
        const stored = all(b);
        expect(stored).toEqual(expected.slice(expected.length - stored.length));
        expect(r.lines).toEqual(stored.slice(Math.max(0, stored.length - n)));
        expect(r.cursor).toBe(expected.length);
        expect(r.dropped).toBe(0);
        expect(r.more).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps order: after every append it holds exactly the newest committed lines, oldest first', () => {
    fc.assert(
      fc.property(options, fc.array(text, { maxLength: 10 }), (opts, chunks) => {
        const b = new TerminalRingBuffer(opts);
        for (let i = 0; i < chunks.length; i++) {
          b.append(chunks[i]!);
          const expected = committedLines(chunks.slice(0, i + 1), opts.maxLineLength);
          const stored = all(b);
          expect(stored).toEqual(expected.slice(expected.length - stored.length));
          expect(b.cursor()).toBe(expected.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('appending in chunks equals appending at once', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 5 }), (t, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (t.length + 1)))].sort((a, b) => a - b);
        const whole = new TerminalRingBuffer({ maxLineLength: 8 });
        whole.append(t);
        const split = new TerminalRingBuffer({ maxLineLength: 8 });
        let last = 0;
        for (const p of [...points, t.length]) {
          split.append(t.slice(last, p));
          last = p;
        }
        expect(split.read({ lines: 1000 })).toEqual(whole.read({ lines: 1000 }));
      }),
      { numRuns: 300 },
    );
  });
});
