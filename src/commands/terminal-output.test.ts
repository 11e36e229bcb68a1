import { describe, expect, it } from 'vitest';
import { TerminalOutput } from './terminal-output.js';

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
