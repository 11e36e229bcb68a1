import { describe, expect, it } from 'vitest';
import { RUN_OUTPUT_LINES } from './tools.js';
import { commandLines } from './run.js';

/** A terminal whose complete lines are `line 0`, `line 1`, … up to `count` (cursor = line index). */
function screens(count: number) {
  return {
    read: (_terminalId: string, { since = 0, lines }: { lines: number; since?: number }) => {
      const from = Math.max(0, since);
      const to = Math.min(count, from + lines);
      return {
        lines: Array.from({ length: Math.max(0, to - from) }, (_, i) => `line ${from + i}`),
        partial: '',
        cursor: to,
        dropped: 0,
        more: to < count,
        redacted: false,
      };
    },
  };
}

describe("terminal.run's output of a finished command", () => {
  it('ends with the last line when no newline ended it (`printf abc`)', () => {
    expect(commandLines(screens(10), 't', 10, 10, 'abc')).toEqual({ lines: ['abc'], truncated: false });
    expect(commandLines(screens(10), 't', 7, 9, 'two')).toEqual({ lines: ['line 7', 'line 8', 'two'], truncated: false });
  });

  it('is only the complete lines when the output ended with a newline', () => {
    expect(commandLines(screens(10), 't', 7, 9)).toEqual({ lines: ['line 7', 'line 8'], truncated: false });
    expect(commandLines(screens(10), 't', 9, 9)).toEqual({ lines: [], truncated: false });
  });

  it(`keeps to ${RUN_OUTPUT_LINES} lines with the unfinished one, saying when earlier ones are left out`, () => {
    const fits = commandLines(screens(1000), 't', 0, RUN_OUTPUT_LINES - 1, 'last');
    expect(fits.lines).toHaveLength(RUN_OUTPUT_LINES);
    expect(fits).toMatchObject({ truncated: false });
    expect(fits.lines.at(0)).toBe('line 0');

    const over = commandLines(screens(1000), 't', 0, RUN_OUTPUT_LINES, 'last');
    expect(over.lines).toHaveLength(RUN_OUTPUT_LINES);
    expect(over).toMatchObject({ truncated: true });
    expect(over.lines.at(0)).toBe('line 1');
    expect(over.lines.at(-2)).toBe(`line ${RUN_OUTPUT_LINES - 1}`);
    expect(over.lines.at(-1)).toBe('last');

    const plain = commandLines(screens(1000), 't', 0, 500);
    expect(plain.lines).toHaveLength(RUN_OUTPUT_LINES);
    expect(plain.lines.at(-1)).toBe('line 499');
    expect(plain.truncated).toBe(true);
  });
});
