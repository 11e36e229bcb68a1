import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShellMarkScanner, ShellState, type ShellMark } from './shell-marks.js';
import { TerminalOutput } from './output.js';

const ESC = '\x1b';
const BEL = '\x07';
const osc = (payload: string, end = BEL) => `${ESC}]${payload}${end}`;

function marks(chunks: string[]): ShellMark[] {
  const scanner = new ShellMarkScanner();
  return chunks.flatMap((chunk) => scanner.scan(chunk).map((f) => f.mark));
}

describe('ShellMarkScanner: OSC 133/633 marks in raw output', () => {
  it('finds A, B, C and D with its exit status, ended by BEL or ST, and where each ends', () => {
    const chunk = `${osc('133;A')}$ ${osc('133;B', `${ESC}\\`)}ls\r\n${osc('133;C')}out\r\n${osc('133;D;127')}`;
    const found = new ShellMarkScanner().scan(chunk);
    expect(found.map((f) => f.mark)).toEqual([{ kind: 'A' }, { kind: 'B' }, { kind: 'C' }, { kind: 'D', exitCode: 127 }]);
    expect(found.map((f) => chunk.slice(0, f.end).endsWith(BEL) || chunk.slice(0, f.end).endsWith('\\'))).toEqual([true, true, true, true]);
    expect(found.at(-1)!.end).toBe(chunk.length);
  });

  it("reads VS Code's 633 marks and parameters after the status, and a D without one", () => {
    expect(marks([osc('633;C'), osc('633;D;2;aid=7'), osc('133;D'), osc('633;P;OpenSpaceShellIntegration=1')])).toEqual([
      { kind: 'C' },
      { kind: 'D', exitCode: 2 },
      { kind: 'D' },
      { kind: 'P' },
    ]);
  });

  it("reads the shell's clock from OpenSpace's t= parameter on C and D (microseconds), and nothing else as a time", () => {
    expect(
      marks([osc('133;C;t=1795758768503031'), osc('133;D;0;t=1795758768805635'), osc('133;D;2;t=12'), osc('133;A;t=1795758768503031')]),
    ).toEqual([
      { kind: 'C', time: 1795758768503.031 },
      { kind: 'D', exitCode: 0, time: 1795758768805.635 },
      { kind: 'D', exitCode: 2 },
      { kind: 'A' },
    ]);
  });

  it("ignores other OSC strings: titles, hyperlinks, Theia's own 133 payloads, 633's command line, 133;P", () => {
    expect(
      marks([
        osc('0;title 133;A'),
        osc('8;;http://x/'),
        osc('133;prompt_started'),
        osc('133;command_started;6c73'),
        osc('633;E;ls;nonce'),
        osc('133;P'),
        osc('1330;A'),
        '133;A\x07 plain text',
      ]),
    ).toEqual([]);
  });

  it('gives up on an over-long payload, a control inside it, and an ESC that aborts it (which may start a mark)', () => {
    expect(marks([osc(`133;D;${'9'.repeat(100)}`)])).toEqual([]);
    expect(marks([`${ESC}]133;A\nmore${BEL}`])).toEqual([]);
    expect(marks([`${ESC}]133;A${ESC}]133;B${BEL}`])).toEqual([{ kind: 'B' }]);
    expect(marks([`${ESC}[1;${ESC}]133;C${BEL}`])).toEqual([{ kind: 'C' }]);
  });

  it('finds a mark split anywhere across chunks at the same place (property)', () => {
    const piece = fc.constantFrom(
      'text',
      '\r\n',
      osc('133;A'),
      osc('133;B'),
      osc('133;C'),
      osc('133;D;0'),
      osc('133;D;130', `${ESC}\\`),
      osc('633;D;1'),
      osc('0;title'),
      `${ESC}[31m`,
      ESC,
      `${ESC}]`,
      BEL,
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), fc.array(fc.nat(), { maxLength: 6 }), (pieces, cuts) => {
        const stream = pieces.join('');
        const whole = new ShellMarkScanner().scan(stream);
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        const scanner = new ShellMarkScanner();
        const split: typeof whole = [];
        let from = 0;
        for (const to of [...points, stream.length]) {
          for (const f of scanner.scan(stream.slice(from, to))) split.push({ mark: f.mark, end: from + f.end });
          from = to;
        }
        expect(split).toEqual(whole);
      }),
    );
  });
});

describe('ShellState: what the marks say about the shell', () => {
  const at = (cursor: number, partial = '') => ({ cursor, partial: () => partial, now: 1000 + cursor });

  it('tracks the prompt, the running command and the last one finished; a D without C ends nothing', () => {
    const shell = new ShellState();
    expect(shell.integration).toBe(false);
    shell.mark({ kind: 'D', exitCode: 0 }, at(0));
    expect(shell.last).toBeUndefined();
    shell.mark({ kind: 'A' }, at(0));
    shell.mark({ kind: 'B' }, at(0));
    expect(shell).toMatchObject({ integration: true, atPrompt: true, running: undefined });
    shell.mark({ kind: 'C' }, at(1));
    expect(shell).toMatchObject({ atPrompt: false, running: { id: 1, startCursor: 1 }, started: 1 });
    shell.mark({ kind: 'C' }, at(3));
    shell.mark({ kind: 'B' }, at(3));
    expect(shell).toMatchObject({ atPrompt: false, running: { id: 1, startCursor: 1 }, started: 1 });
    shell.mark({ kind: 'D', exitCode: 2 }, at(4, 'abc'));
    expect(shell.running).toBeUndefined();
    expect(shell.last).toEqual({ id: 1, startCursor: 1, startedAt: 1001, exitCode: 2, endCursor: 4, partial: 'abc', finishedAt: 1004 });
    shell.mark({ kind: 'D', exitCode: 130 }, at(5));
    expect(shell.last?.exitCode).toBe(2);
  });

  it("times a command by the shell's clock when its marks carry one, read late or not; a time that cannot be right counts as the reading", () => {
    const now = 1_800_000_000_000;
    const shell = new ShellState();
    // A busy IDE read C 500 ms late and D at once: the duration is still the shell's 2 s.
    shell.mark({ kind: 'C', time: now - 2_000 }, { cursor: 0, partial: () => '', now: now - 1_500 });
    shell.mark({ kind: 'D', exitCode: 0, time: now }, { cursor: 1, partial: () => '', now });
    expect(shell.last).toMatchObject({ startedAt: now - 2_000, finishedAt: now });
    // Output can print marks too: a time in the future, from long ago, or before the start is not believed.
    for (const [start, end] of [
      [now + 60_000, now + 61_000],
      [now - 3_600_000, now - 3_599_000],
      [now - 10, now - 1_000],
    ]) {
      shell.mark({ kind: 'C', time: start }, { cursor: 2, partial: () => '', now: now - 100 });
      shell.mark({ kind: 'D', exitCode: 0, time: end }, { cursor: 3, partial: () => '', now });
      expect(shell.last).toMatchObject({ startedAt: now - 100, finishedAt: now });
    }
  });
});

describe('TerminalOutput with shell integration', () => {
  const A = osc('133;A');
  const B = osc('133;B');
  const C = osc('133;C');
  const D = (code: number) => osc(`133;D;${code}`);

  it("places a command's output between the cursors at C and D, its unfinished last line apart", () => {
    const out = new TerminalOutput();
    out.write(`${A}$ ${B}`);
    expect(out.shell).toMatchObject({ integration: true, atPrompt: true });
    out.write(`printf 'one\\ntwo'\r\n${C}one\r\ntwo${D(0)}${A}$ ${B}`);
    const last = out.shell.last!;
    expect(last).toMatchObject({ startCursor: 1, endCursor: 2, partial: 'two', exitCode: 0 });
    expect(out.read({ lines: 10, since: last.startCursor }).lines).toEqual(['one']);
    expect(out.read({ lines: 10 }).partial).toBe('two$ ');
    expect(out.read({ lines: 10 }).lines).toEqual([`$ printf 'one\\ntwo'`, 'one']);
  });

  it('redacts a secret in the unfinished last line before it counts as the output', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
    const out = new TerminalOutput();
    out.write(`${A}$ ${B}x\r\n${C}token ${token}${D(0)}${A}$ ${B}`);
    expect(out.shell.last!.partial).toBe('token [REDACTED:github_token]');
  });

  it('reads the same lines and finds the same commands however the output is chunked (property)', () => {
    const piece = fc.constantFrom(
      `${A}$ ${B}`,
      `cmd\r\n${C}`,
      'out',
      '\r\n',
      'progress 10%\r',
      D(0),
      D(1),
      D(127),
      `${ESC}[1;32mgreen${ESC}[0m`,
      osc('0;title'),
    );
    // Everything but the times.
    const summary = (out: TerminalOutput) => ({
      read: out.read({ lines: 100, since: 0 }),
      shell: [out.shell.integration, out.shell.atPrompt, out.shell.started, out.shell.running?.startCursor],
      last: out.shell.last && { ...out.shell.last, startedAt: 0, finishedAt: 0 },
    });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, cuts) => {
        const stream = pieces.join('');
        const whole = new TerminalOutput();
        whole.write(stream);
        const split = new TerminalOutput();
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const to of [...points, stream.length]) {
          split.write(stream.slice(from, to));
          from = to;
        }
        expect(summary(split)).toEqual(summary(whole));
      }),
    );
  });
});
