/** The matchers on what the real tsc and ESLint print (plain, and tsc's pretty form as a terminal shows it with its colours removed). */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TerminalSanitizer } from '../../security/sanitize.js';
import { parseProblems } from './problems.js';

const bin = (name: string) => fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
let dir: string;

/** What a program printed, as the terminal's screen lines give it. */
async function printed(program: string, args: string[]): Promise<string[]> {
  const out = await promisify(execFile)(bin(program), args, { cwd: dir }).catch((err: { stdout: string }) => err);
  return new TerminalSanitizer().write(out.stdout).split('\n');
}

beforeAll(() => {
  dir = mkdtempSync('/var/tmp/openspace-problems-');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/bad.ts'), "export const a: number = 'x';\n");
  writeFileSync(join(dir, 'src/lint.mjs'), 'let x = 1;\nconst y = 2;\nexport { x };\n');
  writeFileSync(join(dir, 'eslint.config.mjs'), "export default [{ rules: { 'no-unused-vars': 'error', 'prefer-const': 'warn' } }];\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseProblems', () => {
  const TS2322 = {
    path: 'src/bad.ts',
    line: 1,
    column: 14,
    severity: 'error',
    message: "Type 'string' is not assignable to type 'number'.",
    source: 'tsc',
    code: 'TS2322',
  };

  it('tsc, plain and pretty', async () => {
    expect(parseProblems(await printed('tsc', ['--noEmit', '--lib', 'es5', '--pretty', 'false', 'src/bad.ts']), dir)).toEqual([TS2322]);
    expect(parseProblems(await printed('tsc', ['--noEmit', '--lib', 'es5', '--pretty', 'true', 'src/bad.ts']), dir)).toEqual([TS2322]);
  });

  it("ESLint's stylish format: absolute paths made workspace-relative, with the rule", async () => {
    expect(parseProblems(await printed('eslint', ['src/lint.mjs']), dir)).toEqual([
      {
        path: 'src/lint.mjs',
        line: 1,
        column: 5,
        severity: 'warning',
        message: "'x' is never reassigned. Use 'const' instead",
        source: 'eslint',
        code: 'prefer-const',
      },
      {
        path: 'src/lint.mjs',
        line: 2,
        column: 7,
        severity: 'error',
        message: "'y' is assigned a value but never used",
        source: 'eslint',
        code: 'no-unused-vars',
      },
    ]);
  });

  it('compiler lines (gcc, flake8): file:line[:col]: severity: message', () => {
    expect(
      parseProblems(
        ['main.c:3:5: error: expected ‘;’ before ‘}’ token', 'lib/x.py:10: warning: unused import', 'make: *** [all] Error 1'],
        '/ws',
      ),
    ).toEqual([
      { path: 'main.c', line: 3, column: 5, severity: 'error', message: 'expected ‘;’ before ‘}’ token', source: 'compiler' },
      { path: 'lib/x.py', line: 10, severity: 'warning', message: 'unused import', source: 'compiler' },
    ]);
  });
});
