/**
 * The sanitizer's WebAssembly kernel: the committed module is the one its source compiles to, and on
 * megabytes of realistic terminal output it gives what the state machine alone gives, in text and in
 * suspicious counts, whatever the chunk sizes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileKernel, kernelModule } from '../../ci/build-kernel.js';
import { mixedTerminalOutput } from '../../ci/bench-security.js';
import { createKernel, TerminalSanitizer } from './sanitize.js';

const ESC = '\x1b';

describe('sanitizer kernel', () => {
  it('sanitize-kernel.ts holds what sanitize-kernel.wat compiles to (run `npm run build:kernel` after editing the .wat)', async () => {
    const committed = readFileSync(new URL('./sanitize-kernel.ts', import.meta.url), 'utf8');
    expect(committed).toBe(kernelModule(await compileKernel()));
  });

  /** The output of feeding text in chunks of the given sizes (cycled), and the suspicious count. */
  function feed(s: TerminalSanitizer, text: string, sizes: number[]): { text: string; suspicious: number } {
    let out = '';
    for (let i = 0, k = 0; i < text.length; k++) {
      const size = sizes[k % sizes.length]!;
      out += s.write(text.slice(i, i + size));
      i += size;
    }
    return { text: out, suspicious: s.suspicious };
  }

  // Mixed output with, every few hundred characters, something the kernel leaves to the state machine.
  const hard = [`${ESC}[2J`, `${ESC}]52;c;ZXZpbA==\x07`, `${ESC}Pq${ESC}\\`, '\x9b1m', '\x9d0;t\x9c', `${ESC}7`, `${ESC}[1\n2m`, `${ESC}]0;t\x18`];
  const base = mixedTerminalOutput(2 * 1024 * 1024, 11);
  let text = '';
  for (let i = 0, k = 0; i < base.length; i += 700, k++) text += base.slice(i, i + 700) + hard[k % hard.length];

  it.each([
    ['64 KiB chunks', [64 * 1024]],
    ['one 2 MB write', [text.length]],
    ['odd small chunks', [1, 7, 100, 3, 4096, 13]],
  ])('gives what the state machine gives on 2 MB of mixed output, %s', (_name, sizes) => {
    const expected = feed(new TerminalSanitizer({ kernel: null }), text, sizes);
    expect(expected.suspicious).toBeGreaterThan(1000);
    expect(feed(new TerminalSanitizer(), text, sizes)).toEqual(expected);
    expect(feed(new TerminalSanitizer({ kernel: createKernel('portable') }), text, sizes)).toEqual(expected);
  });

  it('passes plain text through unchanged, also in a write longer than the kernel takes at once', () => {
    const chunk = 'plain text ✓ 日本語 😀\r\n'.repeat(4000); // 88,000 code units
    expect(new TerminalSanitizer().write(chunk)).toBe(chunk);
  });
});
