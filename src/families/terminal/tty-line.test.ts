import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { typedLines } from './tty-line.js';

describe('what the shell receives for typed text', () => {
  it.each([
    ['rm -rf x\u007f/\r', ['rm -rf /'], ''],
    ['rm victim.txt.bak\u007f\u007f\u007f\u007f\r', ['rm victim.txt'], ''],
    ['echo safe\u0015rm -rf ~\r', ['rm -rf ~'], ''],
    ['git status --short\u0017\u0017\u0017rm -rf .\r', ['rm -rf .'], ''],
    ['ls\rrm -rf /', ['ls'], 'rm -rf /'],
    ['echo a\nrm b\r\n', ['echo a', 'rm b', ''], ''],
    ['\u0003rm -rf /', [], 'rm -rf /'],
    ['rm -rf /\u001a\r', ['rm -rf /'], ''],
    ['\u007f\u007fls\r', ['ls'], ''],
  ])('%j → %j, waiting %j', (text, lines, rest) => {
    expect(typedLines('', text)).toEqual({ lines, rest, unfollowed: undefined });
  });

  it('joins what waited at the prompt', () => {
    expect(typedLines('rm -r', ' -f /\r')).toMatchObject({ lines: ['rm -r -f /'], rest: '' });
  });

  it('does not follow keys that complete, recall, quote or move: Tab, ESC, Ctrl-V, Ctrl-Y, Ctrl-H, NUL', () => {
    for (const key of ['\t', '\u001b', '\u0016', '\u0019', '\b', '\u0000', '\u0001', '\u0012', '\u0018\u0005'])
      expect(typedLines('', `rm -rf sr${key}\r`).unfollowed, JSON.stringify(key)).toMatch(/^\\u00/);
  });

  it('property: printable text, then DEL as many times as its length, submits an empty line', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abc -/~.*$') }), (text) => {
        expect(typedLines('', `${text}${'\u007f'.repeat(text.length)}\r`).lines).toEqual(['']);
      }),
    );
  });
});
