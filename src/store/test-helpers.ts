/**
 * For the store's tests: a workspace on disk or in a memfs volume with synchronous helpers to arrange
 * it, and the fixture tree that list and both search engines are tested on.
 */
import * as nodeFs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import nodePath from 'node:path';
import { Volume, createFsFromVolume } from 'memfs';
import { afterEach, beforeEach, expect } from 'vitest';
import { ToolError } from '../contract/result.js';
import { WorkspaceFiles } from './workspace-files.js';

/** A workspace plus synchronous helpers to arrange it, on disk or in memfs. */
export interface Env {
  kind: 'disk' | 'memory';
  root: string;
  outside: string;
  files: WorkspaceFiles;
  p: nodePath.PlatformPath;
  write(rel: string, content: string | Buffer): void;
  mkdir(rel: string): void;
  symlink(target: string, rel: string): void;
  link(existingRel: string, rel: string): void;
  truncate(rel: string, size: number): void;
  chmod(rel: string, mode: number): void;
  read(rel: string): string;
  names(relDir: string): string[];
  lstat(rel: string): nodeFs.Stats;
  exists(abs: string): boolean;
  cleanup(): Promise<void>;
}

export async function diskEnv(): Promise<Env> {
  const base = nodeFs.realpathSync(await mkdtemp(nodePath.join(os.tmpdir(), 'openspace-files-')));
  const root = nodePath.join(base, 'ws');
  const outside = nodePath.join(base, 'outside');
  nodeFs.mkdirSync(root);
  nodeFs.mkdirSync(outside);
  // Ignore rules above the workspace must not count (the memfs twin has none).
  nodeFs.writeFileSync(nodePath.join(base, '.gitignore'), 'docs/\nunicode.txt\n*.ts\n');
  const abs = (rel: string) => nodePath.join(root, ...rel.split('/'));
  const files = await WorkspaceFiles.create({ fs: nodeFs, root, kind: 'disk' });
  return {
    kind: 'disk',
    root,
    outside,
    p: nodePath,
    files,
    write: (rel, c) => {
      nodeFs.mkdirSync(nodePath.dirname(abs(rel)), { recursive: true });
      nodeFs.writeFileSync(abs(rel), c);
    },
    mkdir: (rel) => nodeFs.mkdirSync(abs(rel), { recursive: true }),
    symlink: (target, rel) => nodeFs.symlinkSync(target, abs(rel)),
    link: (existing, rel) => nodeFs.linkSync(abs(existing), abs(rel)),
    truncate: (rel, size) => nodeFs.truncateSync(abs(rel), size),
    chmod: (rel, mode) => nodeFs.chmodSync(abs(rel), mode),
    read: (rel) => nodeFs.readFileSync(abs(rel), 'utf8'),
    names: (rel) => nodeFs.readdirSync(abs(rel)).sort(),
    lstat: (rel) => nodeFs.lstatSync(abs(rel)),
    exists: (p) => nodeFs.existsSync(p),
    // Snapshots of the last writes may still be being kept: let them finish before removing the directory.
    cleanup: async () => {
      await files.dispose();
      await rm(base, { recursive: true, force: true });
    },
  };
}

export async function memoryEnv(): Promise<Env> {
  const vol = new Volume();
  const p = nodePath.posix;
  const root = '/work/ws';
  const outside = '/work/outside';
  vol.mkdirSync(root, { recursive: true });
  vol.mkdirSync(outside, { recursive: true });
  const abs = (rel: string) => p.join(root, rel);
  return {
    kind: 'memory',
    root,
    outside,
    p,
    files: await WorkspaceFiles.create({ fs: createFsFromVolume(vol), root, kind: 'memory' }),
    write: (rel, c) => {
      vol.mkdirSync(p.dirname(abs(rel)), { recursive: true });
      vol.writeFileSync(abs(rel), c);
    },
    mkdir: (rel) => vol.mkdirSync(abs(rel), { recursive: true }),
    symlink: (target, rel) => vol.symlinkSync(target, abs(rel)),
    link: (existing, rel) => vol.linkSync(abs(existing), abs(rel)),
    truncate: (rel, size) => vol.truncateSync(abs(rel), size),
    chmod: (rel, mode) => vol.chmodSync(abs(rel), mode),
    read: (rel) => String(vol.readFileSync(abs(rel), 'utf8')),
    names: (rel) => (vol.readdirSync(abs(rel)) as string[]).map(String).sort(),
    lstat: (rel) => vol.lstatSync(abs(rel)) as unknown as nodeFs.Stats,
    exists: (path) => vol.existsSync(path),
    cleanup: async () => {},
  };
}

/** The ToolError a promise rejects with (it must reject with one). */
export async function errorOf(promise: Promise<unknown>): Promise<ToolError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

/** The fixture both engines must agree on. */
export function buildFixture(env: Env): void {
  // No final line break: a .gitignore need not end with one.
  env.write('.gitignore', 'build/\n*.log\n/secret.txt\n!keep.log');
  env.write('.git/HEAD', 'needle in git\n');
  env.write('a.ts', 'const needle = 1;\nNeedle again\nnothing\n');
  env.write('a/b.ts', 'needle b\n');
  env.write('a.b', 'a.b literal\naxb\n');
  env.write('src/index.ts', 'export const x = "needle";\n// NEEDLE upper\n');
  env.write('src/util.test.ts', 'test("needle")\n');
  env.write('src/.gitignore', 'gen/\n/local.ts\n');
  env.write('src/gen/x.ts', 'needle generated\n');
  env.write('src/local.ts', 'needle local (ignored)\n');
  env.write('src/sub/local.ts', 'needle sub local\n');
  env.write('src/sub/deep.ts', 'one\ntwo\nthe needle is deep\n');
  env.write('src/sub/.gitignore', '!important.log\n');
  env.write('src/sub/important.log', 'needle important\n');
  env.write('src/sub/noise.log', 'needle noise\n');
  env.write('build/out.js', 'needle built\n');
  env.write('debug.log', 'needle debug\n');
  env.write('keep.log', 'needle keep\n');
  env.write('secret.txt', 'needle secret\n');
  env.write('docs/secret.txt', 'needle docs\n');
  env.write('vendor/lib.js', 'needle vendor\n');
  env.write('bin.dat', Buffer.from('needle\0binary\n'));
  env.write('late-bin.dat', Buffer.concat([Buffer.from('needle early\n'), Buffer.alloc(100_000, 0x61), Buffer.from('\0\n')]));
  env.write('crlf.txt', 'needle crlf\r\nsecond\r\n');
  env.write('long.txt', `${'x'.repeat(600)}needle\n`);
  env.write('unicode.txt', 'héllo wörld needle\n');
  env.write('regex.txt', 'neeedle\nnedle\n');
  env.write('src/sub/gen/y.ts', 'needle sub gen (ignored by src/.gitignore)\n');
  env.write('README.md', 'read me\n');
  env.write('.config/settings.json', '{ "needle": "hidden" }\n');
  env.symlink('a.ts', 'link-to-a.ts');
  env.symlink('src', 'link-dir');
}

export const kinds = [
  ['disk', diskEnv],
  ['memory', memoryEnv],
] as const;

/** A fresh workspace of `make`'s kind for each test of the enclosing describe, cleaned up after it. */
export function freshEnvEachTest(make: () => Promise<Env>, use: (env: Env) => void): void {
  let env: Env | undefined;
  beforeEach(async () => {
    env = await make();
    use(env);
  });
  afterEach(async () => env?.cleanup());
}
