/**
 * file.search on a large tree, run by `npm run bench` (and alone: `node --import tsx ci/bench-search.ts`).
 *
 * A generated workspace of 20,000 files and about 175 MB (made once, kept under the system's temporary
 * directory and keyed by TREE_VERSION) with a .gitignore at the root and in every package, ignored
 * directories (node_modules, dist, generated) that hold router-*.ts files too, and 300 router-*.ts
 * files among the rest. Two searches go through WorkspaceFiles.search on a real directory, the code
 * the hub runs for file.search: (a) the text "router" everywhere, (b) the same with includePattern
 * "**\/router-*.ts". Each is timed beside ripgrep run alone with the equivalent arguments, in the same
 * run and interleaved, so both see the same machine and the same page cache.
 *
 * maxResults is the contract's maximum (10,000) and the tree holds fewer matches, so neither side
 * stops early: both read the whole tree and the figures compare like with like.
 *
 * Writes reports/bench-search.json and returns the figures.
 */
import { spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rgPath } from '@vscode/ripgrep';
import { WorkspaceFiles } from '../src/store/workspace-files.js';

/** Change it whenever the generated tree changes, so a cached older tree is not measured. */
const TREE_VERSION = 'search-tree-2';
const PACKAGES = 40;
const AREAS = 10;
/** Files in each area directory besides its router file (40 × 10 × 40 = 16,000 searched files). */
const FILES_PER_AREA = 40;
const SAMPLES = 15;
const QUERY = 'router';
const INCLUDE = '**/router-*.ts';
const MAX_RESULTS = 10_000;

/** Deterministic pseudo-random numbers (the same tree every time). */
function prng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

const WORDS = [
  'const',
  'export',
  'function',
  'return',
  'await',
  'value',
  'options',
  'result',
  'handler',
  'request',
  'response',
  'config',
  'session',
  'context',
  'listener',
  'buffer',
  'string',
  'number',
  'undefined',
  'promise',
  'index',
  'items',
  'filter',
  'render',
  'widget',
  'layout',
  'service',
  'provider',
  'module',
  'import',
  'state',
  'update',
  'dispatch',
];

/** About 2 KB of code-like lines (never the query), in 64 variants files are assembled from. */
function chunks(rnd: () => number): string[] {
  const pick = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  return Array.from({ length: 64 }, () => {
    let text = '';
    while (text.length < 1960) {
      const indent = '  '.repeat(Math.floor(rnd() * 4));
      text += `${indent}${pick()} ${pick()}${pick().replace(/^./, (c) => c.toUpperCase())} = ${pick()}(${pick()}, ${Math.floor(rnd() * 1000)});\n`;
    }
    return text;
  });
}

interface Tree {
  root: string;
  files: number;
  bytes: number;
  /** Searched (not ignored) router-*.ts files. */
  routerFiles: number;
  /** Milliseconds it took to generate, or 0 when the cached tree was used. */
  generatedMs: number;
}

/** The benchmark tree, generated on first use into a temporary directory, then renamed into place. */
export function searchTree(): Tree {
  const root = join(tmpdir(), `openspace-bench-${TREE_VERSION}`);
  const manifest = join(root, '.bench-tree.json');
  if (existsSync(manifest)) return { ...(JSON.parse(nodeFs.readFileSync(manifest, 'utf8')) as Tree), root, generatedMs: 0 };

  const started = performance.now();
  const building = `${root}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const rnd = prng(20_000);
  const pieces = chunks(rnd);
  let files = 0;
  let bytes = 0;
  let routerFiles = 0;
  const write = (rel: string, text: string) => {
    const abs = join(building, rel);
    mkdirSync(join(abs, '..'), { recursive: true });
    writeFileSync(abs, text);
    files++;
    bytes += Buffer.byteLength(text);
  };
  /** A file of 2 to 16 KB; one in six imports a router, which is what the plain search finds. */
  const source = (rel: string) => {
    let text = `// ${rel}\n`;
    if (rnd() < 1 / 6) text += `import { createRouter } from './router-${Math.floor(rnd() * 100)}';\n`;
    for (let n = 1 + Math.floor(rnd() * 8); n > 0; n--) text += pieces[Math.floor(rnd() * pieces.length)];
    return text;
  };
  const router = (rel: string) =>
    `${source(rel)}export const router = createRouter();\nrouter.get('/a', handler);\nrouter.post('/b', handler);\n`;

  write('.gitignore', 'node_modules/\ndist/\n*.log\n');
  for (let p = 0; p < PACKAGES; p++) {
    const pkg = `packages/pkg-${String(p).padStart(2, '0')}`;
    write(`${pkg}/.gitignore`, 'generated/\n');
    for (let a = 0; a < AREAS; a++) {
      const area = `${pkg}/src/area-${a}`;
      for (let f = 0; f < FILES_PER_AREA - 1; f++) write(`${area}/file-${String(f).padStart(2, '0')}.ts`, source(area));
      // 300 router files among the 400 areas; the others get one more ordinary file.
      if ((p * AREAS + a) % 4 !== 3) {
        write(`${area}/router-${a}.ts`, router(area));
        routerFiles++;
      } else write(`${area}/file-${FILES_PER_AREA - 1}.ts`, source(area));
      write(`${pkg}/dist/area-${a}/router-${a}.js`, router(area));
      write(`${pkg}/dist/area-${a}/router-${a}.ts`, router(area));
      write(`${pkg}/dist/area-${a}/index.js`, source(area));
      write(`${pkg}/dist/area-${a}/index.d.ts`, source(area));
    }
    for (let g = 0; g < 4; g++) write(`${pkg}/generated/router-gen-${g}.ts`, router(`${pkg}/generated`));
    write(`${pkg}/build-${p}.log`, router(pkg));
  }
  // Ignored dependencies make up the rest of the 20,000 files.
  for (let d = 0; files < 20_000; d++) {
    const dep = `node_modules/dep-${String(Math.floor(d / 50)).padStart(2, '0')}/lib`;
    write(`${dep}/${d % 10 === 0 ? `router-${d}.ts` : `mod-${d}.js`}`, d % 10 === 0 ? router(dep) : source(dep));
  }
  const tree = { root, files, bytes, routerFiles, generatedMs: 0 };
  writeFileSync(join(building, '.bench-tree.json'), JSON.stringify(tree));
  rmSync(root, { recursive: true, force: true });
  renameSync(building, root);
  return { ...tree, generatedMs: performance.now() - started };
}

/** ripgrep alone over the tree, its output read and dropped: the floor for the same search. */
function ripgrep(root: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`rg ${args.join(' ')} exited with ${code}`))));
  });
}

function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export interface SearchBenchRow {
  op: string;
  matches: number;
  p50: number;
  p95: number;
  /** The process's CPU time (user + system) per call, median: what the hub spends beside ripgrep. */
  cpuP50: number;
  rgP50: number;
  rgP95: number;
  ratioP50: number;
}

export interface SearchBenchResult {
  tree: { files: number; megabytes: number; routerFiles: number; generatedMs: number };
  samples: number;
  rows: SearchBenchRow[];
}

export async function benchSearch(options: { samples?: number } = {}): Promise<SearchBenchResult> {
  const samples = options.samples ?? SAMPLES;
  const tree = searchTree();
  const files = await WorkspaceFiles.create({ fs: nodeFs, root: tree.root, kind: 'disk' });
  // ripgrep as a person would run it for the same results: hidden files, .gitignore without a git
  // repository, the hub's path order, case-insensitive literal text.
  const rgBase = ['--no-config', '--hidden', '--no-require-git', '--sort=path', '--ignore-case', '--fixed-strings'];
  const cases = [
    { op: 'file.search "router"', includePattern: undefined, rg: [...rgBase, QUERY, '.'] },
    { op: `file.search "router" includePattern ${INCLUDE}`, includePattern: INCLUDE, rg: [...rgBase, `--glob=${INCLUDE}`, QUERY, '.'] },
  ];
  const rows: SearchBenchRow[] = [];
  try {
    for (const c of cases) {
      const run = () =>
        files.search({
          query: QUERY,
          path: '',
          includePattern: c.includePattern,
          isRegex: false,
          caseSensitive: false,
          maxResults: MAX_RESULTS,
        });
      const first = await run();
      if (first.truncated) throw new Error(`${c.op} was truncated: the tree must hold fewer than ${MAX_RESULTS} matches`);
      const leaked = first.matches.find(
        (m) => /(^|\/)(node_modules|dist|generated)\/|\.log$/.test(m.path) || (c.includePattern && !/(^|\/)router-[^/]*\.ts$/.test(m.path)),
      );
      if (leaked) throw new Error(`${c.op} found ${leaked.path}, which it must not search`);
      if (c.includePattern && new Set(first.matches.map((m) => m.path)).size !== tree.routerFiles)
        throw new Error(`${c.op} did not find every router file`);
      await ripgrep(tree.root, c.rg);
      const hub: number[] = [];
      const cpu: number[] = [];
      const rg: number[] = [];
      for (let i = 0; i < samples; i++) {
        const t = performance.now();
        await ripgrep(tree.root, c.rg);
        rg.push(performance.now() - t);
        const usage = process.cpuUsage();
        const s = performance.now();
        await run();
        hub.push(performance.now() - s);
        const used = process.cpuUsage(usage);
        cpu.push((used.user + used.system) / 1000);
      }
      const row = {
        op: c.op,
        matches: first.matches.length,
        p50: percentile(hub, 0.5),
        p95: percentile(hub, 0.95),
        cpuP50: percentile(cpu, 0.5),
        rgP50: percentile(rg, 0.5),
        rgP95: percentile(rg, 0.95),
      };
      rows.push({ ...row, ratioP50: row.p50 / row.rgP50 });
    }
  } finally {
    await files.dispose();
  }

  const megabytes = tree.bytes / (1024 * 1024);
  const f = (n: number) => n.toFixed(1);
  console.log(
    `\nfile.search on ${tree.files} files, ${megabytes.toFixed(0)} MB (${tree.routerFiles} router-*.ts searched; ` +
      `${tree.generatedMs ? `generated in ${(tree.generatedMs / 1000).toFixed(1)} s` : 'cached'} in ${tree.root}), ` +
      `${samples} samples, ms; rg: ripgrep alone with the same filters\n`,
  );
  console.log('| search | matches | p50 | p95 | CPU p50 | rg p50 | rg p95 | ×rg p50 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.op} | ${r.matches} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.cpuP50)} | ${f(r.rgP50)} | ${f(r.rgP95)} | ${r.ratioP50.toFixed(2)} |`,
    );
  console.log('\nAim: with includePattern ×rg p50 ≤ 2.');

  const result = { tree: { files: tree.files, megabytes, routerFiles: tree.routerFiles, generatedMs: tree.generatedMs }, samples, rows };
  mkdirSync(fileURLToPath(new URL('../reports', import.meta.url)), { recursive: true });
  writeFileSync(
    fileURLToPath(new URL('../reports/bench-search.json', import.meta.url)),
    JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2) + '\n',
  );
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchSearch();
