/**
 * The terminal boundary's figures (issue 28), run by `npm run bench` (and alone:
 * `node --import tsx ci/bench-sandbox.ts [--quick] [--fresh]`: 40 lines of each corpus, or only the
 * fresh ones), scored by what happened, not by whether a
 * question came:
 *
 * - every line of the dangerous corpora is CONTAINED when the box check asks (or refuses a
 *   read-only path) or when, run for real in the sandbox, it was harmless: no canary of the fake home
 *   or of the environment in its output, nothing changed beside the workspace or in the home, no
 *   file git tracks lost or changed, no git hook or config, editor task or other code-running file
 *   planted, nothing reached the listener standing in for the attacker's host;
 * - everyday commands: the share that asks.
 *
 * Corpora: the ones the checks were written against (dangerous-commands.txt, must-ask-commands.txt,
 * everyday-commands.txt) and two written without reading the checks (fresh-*.txt): the figures that
 * count are the fresh ones. Each dangerous line runs in a fresh copy of a small repository, for at
 * most RUN_MS, with files of at most 64 MiB and 1 GiB of data. Writes reports/bench-sandbox.json.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { endSandboxSession, probeBwrap } from '../src/security/sandbox-host.js';
import { SandboxRuntime } from '../src/security/sandbox-runtime.js';
import { sandboxSettings } from '../src/security/sandbox.js';

const CANARY = 'openspace-bench-canary-7c41';
const RUN_MS = 4_000;

function corpus(name: string, ruled: boolean): string[] {
  const text = readFileSync(new URL(`../src/security/corpus/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('# ') && l !== '#')
    .map((l) => (ruled ? l.replace(/^\S+\s+/, '') : l).replaceAll('\u2424', '\n'));
}

/** Every file under `dir` with a hash of its content (links as their target), for a before/after comparison. */
function snapshot(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, rel));
    } catch {
      return;
    }
    for (const name of names) {
      const path = rel ? `${rel}/${name}` : name;
      const stat = statSync(join(dir, path), { throwIfNoEntry: false });
      if (!stat) found.set(path, 'dangling');
      else if (stat.isDirectory()) walk(path);
      else
        found.set(
          path,
          stat.isFile()
            ? createHash('sha1')
                .update(readFileSync(join(dir, path)))
                .digest('hex')
            : 'special',
        );
    }
  };
  walk('');
  return found;
}

const EMPTY = createHash('sha1').update('').digest('hex');

/** What changed; a new empty file runs nothing (the sandbox's read-only covers of missing paths are such). */
function changes(before: Map<string, string>, after: Map<string, string>, keep: (path: string) => boolean = () => true): string[] {
  const changed: string[] = [];
  for (const [path, hash] of before) if (keep(path) && after.get(path) !== hash) changed.push(path);
  for (const [path, hash] of after) if (keep(path) && !before.has(path) && hash !== EMPTY) changed.push(`+${path}`);
  return changed;
}

interface Place {
  base: string;
  home: string;
  beside: string;
  template: string;
  workspace: string;
  env: Record<string, string>;
}

/** A fake home full of canaries, a directory beside the workspace, and a small repository to copy. */
function makePlace(): Place {
  const base = mkdtempSync('/var/tmp/openspace-bench-sandbox-');
  const home = join(base, 'home');
  const beside = join(base, 'beside');
  const template = join(base, 'template');
  for (const dir of [join(home, '.ssh'), join(home, '.config', 'gh'), beside, join(template, 'src')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${CANARY} key\n`);
  writeFileSync(join(home, '.npmrc'), `//registry.npmjs.org/:_authToken=${CANARY}\n`);
  writeFileSync(join(home, '.git-credentials'), `https://dev:${CANARY}@github.com\n`);
  writeFileSync(join(home, '.bash_history'), `mysql -p${CANARY}\n`);
  writeFileSync(join(home, '.config', 'gh', 'hosts.yml'), `github.com:\n  oauth_token: ${CANARY}\n`);
  writeFileSync(join(home, '.bashrc'), '# the person’s\n');
  writeFileSync(join(beside, 'keep.txt'), 'keep\n');
  writeFileSync(join(template, 'README.md'), '# project\n');
  writeFileSync(join(template, 'package.json'), '{"name":"p","version":"1.0.0","scripts":{"test":"node src/app.js"}}\n');
  writeFileSync(join(template, 'src', 'app.js'), 'console.log("ok")\n');
  writeFileSync(join(template, 'src', 'lib.js'), 'module.exports = 1\n');
  writeFileSync(join(template, '.gitignore'), 'dist/\nnode_modules/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: template, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=p', '-c', 'user.email=p@x', 'commit', '-qm', 'init');
  mkdirSync(join(template, 'dist'));
  writeFileSync(join(template, 'dist', 'app.js'), 'built\n');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GITHUB_TOKEN: `${CANARY}-env`,
    AWS_SECRET_ACCESS_KEY: `${CANARY}-env`,
  };
  return { base, home, beside, template, workspace: join(base, 'workspace'), env };
}

/** Run `command` in the sandbox for at most RUN_MS: its output. */
async function runInSandbox(runtime: SandboxRuntime, place: Place, command: string): Promise<string> {
  const line = await runtime.command(['/bin/bash', '-c', command], place.workspace, place.env);
  if ('unavailable' in line) throw new Error(line.unavailable);
  const child = spawn(line[0]!, line.slice(1), { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const take = (d: Buffer) => {
    if (out.length < 1_000_000) out += d.toString('latin1');
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const timer = setTimeout(() => endSandboxSession(child.pid!), RUN_MS);
  await new Promise((done) => child.once('close', done));
  clearTimeout(timer);
  endSandboxSession(child.pid!); // what a background job left
  return out;
}

export interface SandboxFigures {
  dangerous: { corpus: string; total: number; asked: number; harmless: number; escaped: { command: string; why: string[] }[] }[];
  everyday: { corpus: string; total: number; asking: string[] }[];
}

export async function benchSandbox(options: { quick?: boolean; fresh?: boolean } = {}): Promise<SandboxFigures | undefined> {
  const bwrap = probeBwrap();
  if (!bwrap.available) {
    console.log(`\nSandbox containment: not measured (${bwrap.reason})`);
    return undefined;
  }
  const place = makePlace();
  const received: string[] = [];
  const listener = createServer((socket) => socket.on('data', (d) => received.push(d.toString('latin1'))).on('error', () => {}));
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', () => done()));
  const port = (listener.address() as AddressInfo).port;
  const { settings } = sandboxSettings({});
  // Files of at most 64 MiB and 1 GiB of data here (8 GiB each in an IDE): the disk and memory fillers among the lines would
  // otherwise write and take gigabytes each.
  const runtime = new SandboxRuntime(settings, {
    workspace: place.workspace,
    home: place.home,
    limits: { fileSizeBytes: 64 * 2 ** 20, dataBytes: 2 ** 30 },
  });
  const figures: SandboxFigures = { dangerous: [], everyday: [] };
  try {
    cpSync(place.template, place.workspace, { recursive: true });
    for (const [name, ruled] of [
      ['fresh-everyday-commands.txt', false],
      ['everyday-commands.txt', false],
    ] as const) {
      const lines = corpus(name, ruled);
      figures.everyday.push({ corpus: name, total: lines.length, asking: lines.filter((l) => runtime.assess(l, place.workspace).ask) });
    }
    const outside = () =>
      new Map<string, string>([
        ...[...snapshot(place.home)].map(([k, v]): [string, string] => [`~/${k}`, v]),
        ...[...snapshot(place.beside)].map(([k, v]): [string, string] => [`beside/${k}`, v]),
      ]);
    const before = { outside: outside(), workspace: snapshot(place.template) };
    const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: place.template, encoding: 'utf8' }).split('\n').filter(Boolean));
    const guarded = (path: string) =>
      tracked.has(path) ||
      /^\.git\/(hooks|config)/.test(path) ||
      /^(\.vscode|\.theia|\.openspace|\.envrc|\.npmrc|\.husky|\.github|\.devcontainer)(\/|$)/.test(path);
    const dangerous = [
      ['fresh-dangerous-commands.txt', true],
      ['dangerous-commands.txt', true],
      ['must-ask-commands.txt', true],
    ] as const;
    for (const [name, ruled] of options.fresh ? dangerous.slice(0, 1) : dangerous) {
      let lines = corpus(name, ruled).map((l) => l.replaceAll('127.0.0.1:4444', `127.0.0.1:${port}`));
      if (options.quick) lines = lines.slice(0, 40);
      const figure = { corpus: name, total: lines.length, asked: 0, harmless: 0, escaped: [] as { command: string; why: string[] }[] };
      const started = Date.now();
      for (const [i, command] of lines.entries()) {
        if (i % 20 === 0) console.log(`  ${name}: ${i}/${lines.length} lines (${Math.round((Date.now() - started) / 1000)} s)`);
        rmSync(place.workspace, { recursive: true, force: true });
        cpSync(place.template, place.workspace, { recursive: true });
        const verdict = runtime.assess(command, place.workspace);
        if (verdict.ask || verdict.readOnly.length > 0) {
          figure.asked++;
          continue;
        }
        received.length = 0;
        const out = await runInSandbox(runtime, place, command);
        const why = [
          ...(out.includes(CANARY) ? ['a canary in its output'] : []),
          ...(received.length > 0 ? ['reached the listener on 127.0.0.1'] : []),
          ...changes(before.outside, outside()).map((p) => `changed ${p}`),
          ...changes(before.workspace, snapshot(place.workspace), guarded).map((p) => `changed ${p}`),
        ];
        if (why.length === 0) figure.harmless++;
        else {
          figure.escaped.push({ command, why });
          console.log(`    NOT contained: ${command.replaceAll('\n', '␤')} — ${why.join('; ')}`);
        }
      }
      figures.dangerous.push(figure);
    }
  } finally {
    await runtime.dispose();
    listener.close();
    rmSync(place.base, { recursive: true, force: true });
  }
  console.log('\nSandbox containment (dangerous lines asked, or run in the sandbox and harmless):');
  for (const f of figures.dangerous) {
    const contained = f.asked + f.harmless;
    console.log(
      `  ${f.corpus}: ${contained}/${f.total} contained (${((contained / f.total) * 100).toFixed(1)}%): ${f.asked} asked, ${f.harmless} harmless in the box`,
    );
    for (const e of f.escaped) console.log(`    NOT contained: ${e.command.replaceAll('\n', '␤')} — ${e.why.join('; ')}`);
  }
  console.log('Everyday commands that ask:');
  for (const f of figures.everyday) {
    console.log(`  ${f.corpus}: ${f.asking.length}/${f.total} ask (${((f.asking.length / f.total) * 100).toFixed(1)}%)`);
    for (const a of f.asking) console.log(`    ${a.replaceAll('\n', '␤')}`);
  }
  mkdirSync(fileURLToPath(new URL('../reports', import.meta.url)), { recursive: true });
  writeFileSync(fileURLToPath(new URL('../reports/bench-sandbox.json', import.meta.url)), JSON.stringify(figures, null, 2) + '\n');
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await benchSandbox({ quick: process.argv.includes('--quick'), fresh: process.argv.includes('--fresh') });
