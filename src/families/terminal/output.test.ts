import { describe, expect, it } from 'vitest';
import type { TerminalInfo } from '../../contract/index.js';
import type { TerminalPort } from './port.js';
import { TerminalOutput, TerminalScreens } from './output.js';

// Built at run time so no token-shaped literal sits in the source.
const githubToken = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;

describe('TerminalOutput: what an agent reads from a terminal', () => {
  it('shows the unfinished line (a prompt) although the redactor holds it back', () => {
    const out = new TerminalOutput();
    out.write('\u001b[32mhello\u001b[0m\r\n$ ');
    expect(out.read({ lines: 10 })).toEqual({ lines: ['hello'], partial: '$ ', cursor: 1, dropped: 0, more: false, redacted: false });
  });

  it('applies carriage returns to the held line as a screen does', () => {
    const out = new TerminalOutput();
    out.write('10%\r20%');
    expect(out.read({ lines: 10 }).partial).toBe('20%');
  });

  it('replaces a secret split across chunks, in lines and in the unfinished line, and says so', () => {
    const out = new TerminalOutput();
    const half = Math.floor(githubToken.length / 2);
    out.write(`token is ${githubToken.slice(0, half)}`);
    out.write(`${githubToken.slice(half)}\r\nnext ${githubToken}`);
    const read = out.read({ lines: 10 });
    expect(read.lines).toEqual(['token is [REDACTED:github_token]']);
    expect(read.partial).toBe('next [REDACTED:github_token]');
    expect(read.redacted).toBe(true);
    expect(JSON.stringify(read)).not.toContain(githubToken.slice(4, 20));
  });

  it('never shows a private key block, even before it ends', () => {
    const out = new TerminalOutput();
    out.write('-----BEGIN OPENSSH PRIVATE KEY-----\r\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\r\n');
    const read = out.read({ lines: 10 });
    expect(JSON.stringify(read)).not.toContain('b3BlbnNzaC1rZXkt');
    expect(read.redacted).toBe(true);
  });

  it('warns once per chunk that holds suspicious sequences (a clipboard write), never for colours', () => {
    const warnings: string[] = [];
    const out = new TerminalOutput({ label: 'terminal "t"', warn: (m) => warnings.push(m) });
    out.write('\x1b[31mred\x1b[0m plain\r\n');
    expect(warnings).toEqual([]);
    out.write('before\x1b]52;c;ZWNobyBwd25lZA==\x07after\x1bP1$r0m\x1b\\\r\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/terminal "t" printed 2 suspicious escape sequence/);
    expect(out.read({ lines: 5 }).lines.at(-1)).toBe('beforeafter');
  });
});

/** A port as small as the interface allows: it can only hand over raw output, never answer a read. */
function rawPort() {
  const terminals: TerminalInfo[] = [];
  const listeners = new Set<(id: string, data: string) => void>();
  const port: TerminalPort = {
    create: async ({ terminalId, title, cwd }) => {
      const info = { terminalId, title, cwd, running: true };
      terminals.push(info);
      return info;
    },
    list: () => terminals,
    activeTerminalId: () => terminals.at(-1)?.terminalId,
    send: async () => {},
    close: async (id) =>
      void terminals.splice(
        terminals.findIndex((t) => t.terminalId === id),
        1,
      ),
    onOutput: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  const print = (id: string, data: string) => listeners.forEach((l) => l(id, data));
  return { port, print };
}

describe("TerminalScreens: every IDE's terminals read through the one pipeline", () => {
  it('sanitizes and redacts what a port hands over, per terminal', async () => {
    const { port, print } = rawPort();
    const screens = new TerminalScreens(port, { warn: () => {} });
    await port.create({ terminalId: 'a', title: 'a', cwd: '' });
    await port.create({ terminalId: 'b', title: 'b', cwd: '' });
    print('a', `\x1b]52;c;ZWNobw==\x07export GH=${githubToken}\r\n`);
    print('b', '\x1b[1mbuild ok\x1b[0m\r\n');
    expect(screens.read('a', { lines: 10 })).toMatchObject({ lines: ['export GH=[REDACTED:github_token]'], redacted: true, cursor: 1 });
    expect(screens.read('b', { lines: 10 })).toMatchObject({ lines: ['build ok'], redacted: false });
    expect(screens.cursor('b')).toBe(1);
  });

  it('reads a terminal that printed nothing yet as empty, and starts over when its ID names a new terminal', async () => {
    const { port, print } = rawPort();
    const screens = new TerminalScreens(port);
    await port.create({ terminalId: 't', title: 't', cwd: '' });
    expect(screens.read('t', { lines: 10 })).toMatchObject({ lines: [], partial: '', cursor: 0 });
    print('t', 'old output\r\n');
    await port.close('t');
    screens.forget('t');
    await port.create({ terminalId: 't', title: 't', cwd: '' });
    print('t', 'new\r\n');
    expect(screens.read('t', { lines: 10 }).lines).toEqual(['new']);
  });

  it('lets go of the output of terminals closed in the IDE, when the next terminal prints', async () => {
    const { port, print } = rawPort();
    const screens = new TerminalScreens(port);
    await port.create({ terminalId: 'gone', title: 'gone', cwd: '' });
    print('gone', 'secret-free but large\r\n');
    await port.close('gone'); // a person closed it: no command forgot it
    await port.create({ terminalId: 'next', title: 'next', cwd: '' });
    print('next', 'x\r\n');
    await port.create({ terminalId: 'gone', title: 'gone', cwd: '' });
    expect(screens.cursor('gone')).toBe(0);
  });

  it('stops listening when disposed', async () => {
    const { port, print } = rawPort();
    const screens = new TerminalScreens(port);
    await port.create({ terminalId: 't', title: 't', cwd: '' });
    screens.dispose();
    print('t', 'late\r\n');
    expect(screens.cursor('t')).toBe(0);
  });
});
