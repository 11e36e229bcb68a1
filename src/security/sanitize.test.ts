import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FORWARD, MAX_STRING_LENGTH, TerminalSanitizer } from './sanitize.js';

const ESC = '\x1b';
const BEL = '\x07';
const ST = ESC + '\\';

const make = () => new TerminalSanitizer();

// Arbitraries: terminal-ish output made of plain text and a selection of escape sequences and controls.
const plain = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '日', '😀', '\ufeff', '[', ']', '\\', ';', '7', 'm', 'P') });
const piece = fc.oneof(
  plain,
  fc.constantFrom(
    ESC,
    `${ESC}[`,
    `${ESC}[31m`,
    `${ESC}[?2004h`,
    `${ESC}]0;t`,
    `${ESC}]52;c;`,
    BEL,
    ST,
    '\x9c',
    '\x9b',
    '\x9d',
    `${ESC}P`,
    `${ESC}_`,
    `${ESC}(`,
    '\x00',
    '\x18',
    '\x7f',
    '\x85',
    '\t',
    '\n',
    '\r',
    '\b',
    `${ESC}[2J`,
    `${ESC}c`,
    // Suspicious sequences (counted), near misses of them, and sequences inside strings.
    `${ESC}[K`,
    `${ESC}[1G`,
    `${ESC}[C`,
    `${ESC}[3C`,
    '\f',
    `${ESC}[3J`,
    `${ESC}[23J`,
    `${ESC}[s`,
    `${ESC}[u`,
    `${ESC}[1s`,
    `${ESC}7`,
    `${ESC}8`,
    `${ESC}X`,
    `${ESC}^`,
    `${ESC}${ESC}`,
    `${ESC}]52;`,
    `${ESC}]5`,
    `${ESC}]8;;https://x.y${ST}`,
    `${ESC}]0;t\x18`,
    `${ESC}]0;t${ESC}x`,
    `${ESC}[1\n`,
    `${ESC}(\x07`,
    `${ESC}#8`,
    `${ESC}é`,
    '\x90',
    '\x98',
    '\x9e',
    '\x9f',
    'a line of plain text, long enough to fill 8-unit blocks ',
  ),
  fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
);
const terminalOutput = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

describe('sanitize', () => {
  const clean = (text: string): string => make().write(text);

  describe('table', () => {
    const cases: [string, string, string][] = [
      ['SGR colours', `${ESC}[31mred${ESC}[0m plain ${ESC}[1;38;5;208mbold${ESC}[m`, 'red plain bold'],
      ['truecolour with colon parameters', `${ESC}[38:2::255:0:0mx${ESC}[0m`, 'x'],
      ['private modes', `${ESC}[?2004h$ ${ESC}[?2004l\rhello\r\n`, '$ \rhello\r\n'],
      ['cursor movement and erase (erase to the end of the line is kept as \\v)', `a${ESC}[2Kb${ESC}[10;20Hc${ESC}[Kd`, 'abc\vd'],
      ['a spinner: to column 1, erase to the end', `⠙${ESC}[1G${ESC}[0K2 passed${ESC}[G`, '⠙\r\v2 passed\r'],
      [
        'cursor forward is kept as \f a column',
        `$ ls\r${ESC}[C${ESC}[C${ESC}[K|${ESC}[3C|${ESC}[0C${ESC}[1;2C${ESC}[?5C`,
        '$ ls\r\f\f\v|\f\f\f|\f',
      ],
      ['cursor forward moves at most MAX_FORWARD columns', `${ESC}[99999999999999999999C.`, `${'\f'.repeat(MAX_FORWARD)}.`],
      ['CSI final bytes at both ends of the range (@ and ~)', `a${ESC}[5@b${ESC}[200~c${ESC}[201~`, 'abc'],
      ['CSI with intermediate byte', `a${ESC}[0 qb`, 'ab'],
      ['8-bit CSI', 'a\x9b31mb\x9b0mc', 'abc'],
      ['OSC title with BEL', `${ESC}]0;my title${BEL}after`, 'after'],
      ['OSC title with ESC \\', `${ESC}]2;title${ST}after`, 'after'],
      ['OSC with 8-bit ST', `${ESC}]2;title\x9cafter`, 'after'],
      ['8-bit OSC', '\x9d0;title\x07after', 'after'],
      ['OSC 8 hyperlink keeps the link text', `see ${ESC}]8;;https://example.com${ST}the docs${ESC}]8;;${ST}.`, 'see the docs.'],
      ['OSC 52 clipboard write', `x${ESC}]52;c;ZXZpbA==${BEL}y`, 'xy'],
      ['DCS', `a${ESC}Pq#0;2;0;0;0#1${ST}b`, 'ab'],
      ['8-bit DCS', 'a\x90payload\x9cb', 'ab'],
      ['SOS, PM, APC', `a${ESC}Xsos${ST}b${ESC}^pm${ST}c${ESC}_apc${BEL}d`, 'abcd'],
      ['charset designation takes one more byte', `${ESC}(Babc${ESC})0d`, 'abcd'],
      ['two-byte ESC sequences', `${ESC}=a${ESC}>b${ESC}Mc${ESC}7d${ESC}8e${ESC}cf`, 'abcdef'],
      ['lone ESC at the end', `abc${ESC}`, 'abc'],
      ['ESC before a newline drops only the ESC', `a${ESC}\nb`, 'a\nb'],
      ['ESC ESC [ m', `a${ESC}${ESC}[1mb`, 'ab'],
      [
        'NUL and other C0 controls (\\v and \\f are kept: the line assembler erases and moves with them)',
        'a\x00b\x07c\x0bd\x0ce\x0ef\x1fg',
        'abc\vd\fefg',
      ],
      ['DEL', 'a\x7fb', 'ab'],
      ['C1 controls', 'a\x80b\x85c\x9ad\x9ce', 'abcde'],
      ['keeps \\t \\n \\r \\b', 'a\tb\r\nc\bd\n', 'a\tb\r\nc\bd\n'],
      ['CAN aborts a CSI', `a${ESC}[12\x18b`, 'ab'],
      ['newline inside a CSI is executed', `a${ESC}[1\n2mb`, 'a\nb'],
      ['ESC inside an OSC aborts it and starts a new sequence', `${ESC}]0;t${ESC}[31mred`, 'red'],
      ['unicode passes', 'héllo wörld ✓ 日本 😀', 'héllo wörld ✓ 日本 😀'],
      ['ESC before an emoji drops only the ESC', `a${ESC}😀b${ESC}😀`, 'a😀b😀'],
      ['lone surrogates pass as they are', 'a\ud83db\ude00c\ud83d', 'a\ud83db\ude00c\ud83d'],
      ['U+FEFF (a byte order mark) is text, also first in a chunk', `\ufeffa${ESC}[0m\ufeffb`, '\ufeffa\ufeffb'],
    ];
    it.each(cases)('%s', (_name, input, expected) => {
      expect(clean(input)).toBe(expected);
    });

    it('gives up on an unterminated OSC after 64 KiB and prints what follows', () => {
      const s = make();
      expect(s.write(`before${ESC}]`)).toBe('before');
      expect(s.write('x'.repeat(MAX_STRING_LENGTH - 1))).toBe('');
      // One more character completes the limit; what follows is text again.
      expect(s.write('yafter')).toBe('after');
    });

    it('an unterminated OSC swallows output until terminated', () => {
      const s = make();
      expect(s.write(`a${ESC}]0;title`)).toBe('a');
      expect(s.write('still title')).toBe('');
      expect(s.write(`${BEL}b`)).toBe('b');
    });

    it('counts suspicious sequences', () => {
      const count = (input: string): number => {
        const s = make();
        s.write(input);
        return s.suspicious;
      };
      expect(count(`${ESC}[31mred${ESC}[0m ${ESC}]0;title${BEL} ${ESC}[?2004h`)).toBe(0);
      expect(count(`${ESC}]52;c;ZXZpbA==${BEL}`)).toBe(1);
      expect(count(`${ESC}]5;x${BEL}`)).toBe(0);
      expect(count(`${ESC}Pq${ST}`)).toBe(1);
      expect(count(`${ESC}_a${ST}${ESC}^b${ST}${ESC}Xc${ST}`)).toBe(3);
      expect(count(`${ESC}[2J${ESC}[3J${ESC}c`)).toBe(3);
      expect(count(`${ESC}[J${ESC}[1J`)).toBe(0);
      expect(count(`${ESC}7${ESC}8${ESC}[s${ESC}[u`)).toBe(4);
      expect(count('\x90x\x9c')).toBe(1);
    });

    it('counts OSC 52 split across chunks once', () => {
      const s = make();
      for (const chunk of [`${ESC}]`, '5', '2', ';c;', 'ZZ', BEL]) s.write(chunk);
      expect(s.suspicious).toBe(1);
    });
  });

  describe('properties', () => {
    it('output has no ESC, no C1, no DEL and no C0 except \\t \\n \\r \\b, \\v only for an erase (CSI K), \\f only for a cursor forward (CSI C)', () => {
      fc.assert(
        fc.property(terminalOutput, (input) => {
          const out = clean(input);
          expect(out).not.toMatch(/[\x00-\x07\x0e-\x1f\x7f-\x9f]/);
          if (!input.includes('K') && !input.includes('\v')) expect(out).not.toContain('\v');
          if (!input.includes('C') && !input.includes('\f')) expect(out).not.toContain('\f');
        }),
        { numRuns: 500 },
      );
    });

    it('plain printable text is unchanged', () => {
      const printable = fc.string({
        unit: fc.oneof(
          fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          fc.constantFrom('\t', '\n', '\r', '\b', 'é', '日', '😀', '\u00a0'),
        ),
      });
      fc.assert(
        fc.property(printable, (text) => clean(text) === text),
        { numRuns: 500 },
      );
    });

    it('is idempotent', () => {
      fc.assert(
        fc.property(terminalOutput, (input) => {
          const once = clean(input);
          expect(clean(once)).toBe(once);
        }),
        { numRuns: 500 },
      );
    });

    it('splitting the input into chunks gives the same output and count as one write', () => {
      fc.assert(
        fc.property(terminalOutput, fc.array(fc.nat(), { maxLength: 10 }), (input, cuts) => {
          const whole = make();
          const expected = whole.write(input);
          const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
          const split = make();
          let got = '';
          let last = 0;
          for (const p of [...points, input.length]) {
            got += split.write(input.slice(last, p));
            last = p;
          }
          expect(got).toBe(expected);
          expect(split.suspicious).toBe(whole.suspicious);
        }),
        { numRuns: 1000 },
      );
    });

    it('character-by-character feeding equals one write', () => {
      fc.assert(
        fc.property(terminalOutput, (input) => {
          const split = make();
          let got = '';
          for (const ch of input.split('')) got += split.write(ch);
          expect(got).toBe(clean(input));
        }),
        { numRuns: 300 },
      );
    });
  });
});
