// The static checks of `npm test`, side by side (the machine has two cores and each is mostly one):
// the type check (TypeScript 7's tsgo), ESLint and the format check (oxfmt). Prints each one's output when it ends; fails if any fails.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['types', 'npx', ['tsgo', '--noEmit', '-p', '.']],
  ['eslint', 'npx', ['eslint', '.']],
  ['format', 'npx', ['oxfmt', '--check', '**/*.{ts,tsx,js,mjs}']],
];

const results = await Promise.all(
  CHECKS.map(
    ([name, command, args]) =>
      new Promise((done) => {
        const started = Date.now();
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('close', (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`${code === 0 ? '✓' : '✗'} ${name} (${seconds} s)\n${output}`);
          done(code === 0);
        });
      }),
  ),
);
process.exitCode = results.every(Boolean) ? 0 : 1;
