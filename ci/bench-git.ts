/**
 * git.status and git.diff on a large repository, run by `npm run bench` (and alone:
 * `node --import tsx ci/bench-git.ts`).
 *
 * A generated repository of 20,000 committed files (made once, kept under the system's temporary
 * directory and keyed by REPO_VERSION) with 20 of them changed in two places each, unstaged. The
 * family's GitRepository (the code both IDEs run for an agent's git.status and git.diff) is timed
 * beside the `git` program run alone for what an agent would type instead — `git status
 * --porcelain=v2` and `git diff` — in the same run and interleaved, so both see the same machine and
 * the same page cache. GitRepository does more for its answer (where the repository is, its filter
 * drivers switched off, line counts staged and unstaged, hunk IDs): the ratio is what that costs.
 *
 * Writes reports/bench-git.json and returns the figures.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GitRepository } from '../src/families/git/repository.js';
import { createFilePolicy } from '../src/security/file-policy.js';

/** Change it whenever the generated repository changes, so a cached older one is not measured. */
const REPO_VERSION = 'git-repo-1';
const FILES = 20_000;
const CHANGED = 20;
const SAMPLES = 15;

function lines(n: number, seed: number): string {
  return Array.from({ length: 30 }, (_, i) => `export const value${n}_${i} = ${(seed * 31 + i) % 997};`).join('\n') + '\n';
}

/** The repository, made once: 20,000 files in 400 directories, committed. */
function repository(): string {
  const dir = join(tmpdir(), `openspace-bench-${REPO_VERSION}`);
  if (existsSync(join(dir, '.git'))) return dir;
  const making = `${dir}.making-${process.pid}`;
  rmSync(making, { recursive: true, force: true });
  for (let i = 0; i < FILES; i++) {
    const sub = join(making, `pkg-${Math.floor(i / 500)}`, `area-${Math.floor(i / 50) % 10}`);
    if (i % 50 === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `file-${i}.ts`), lines(i, i));
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: making, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'the tree');
  rmSync(dir, { recursive: true, force: true });
  renameSync(making, dir);
  return dir;
}

/** 20 files changed near their start and near their end: two hunks each. */
function change(dir: string): void {
  for (let c = 0; c < CHANGED; c++) {
    const i = c * 997;
    const text = lines(i, i).split('\n');
    text[1] = `// changed ${c}`;
    text[27] = `// changed again ${c}`;
    writeFileSync(join(dir, `pkg-${Math.floor(i / 500)}`, `area-${Math.floor(i / 50) % 10}`, `file-${i}.ts`), text.join('\n'));
  }
}

function runGit(dir: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args.join(' ')} exited with ${code}`))));
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const p50 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

export interface GitBenchFigures {
  files: number;
  changed: number;
  status: { openspaceMs: number; gitMs: number; ratio: number };
  diff: { openspaceMs: number; gitMs: number; ratio: number };
}

export async function benchGit(): Promise<GitBenchFigures> {
  const dir = repository();
  execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: dir });
  change(dir);
  const repo = new GitRepository(dir, createFilePolicy());
  const pairs = {
    status: [() => repo.status(), () => runGit(dir, ['status', '--porcelain=v2'])],
    diff: [() => repo.diff({}), () => runGit(dir, ['diff'])],
  } as const;
  const figures = {} as Pick<GitBenchFigures, 'status' | 'diff'>;
  for (const [name, [ours, cli]] of Object.entries(pairs)) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < SAMPLES + 2; i++) {
      const [x, y] = [await timed(ours), await timed(cli)];
      if (i >= 2) {
        a.push(x);
        b.push(y);
      }
    }
    figures[name as keyof typeof pairs] = { openspaceMs: p50(a), gitMs: p50(b), ratio: p50(a) / p50(b) };
  }
  execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: dir });
  const result = { files: FILES, changed: CHANGED, ...figures };
  console.log(`\ngit on a ${FILES}-file repository, ${CHANGED} files changed in two places, p50 of ${SAMPLES} (in process, interleaved):`);
  console.log('| operation | OpenSpace ms | git CLI ms | ratio |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, f] of Object.entries(figures)) {
    const cli = name === 'status' ? 'git status --porcelain=v2' : 'git diff';
    console.log(`| git.${name} (beside ${cli}) | ${f.openspaceMs.toFixed(1)} | ${f.gitMs.toFixed(1)} | ${f.ratio.toFixed(2)}× |`);
  }
  console.log('Aim: ≤ 1.3× the git CLI.');
  mkdirSync(fileURLToPath(new URL('../reports', import.meta.url)), { recursive: true });
  writeFileSync(fileURLToPath(new URL('../reports/bench-git.json', import.meta.url)), JSON.stringify(result, null, 2));
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchGit();
