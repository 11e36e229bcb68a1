import * as nodeFs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import nodePath from 'node:path';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchOptions } from '../contract/port.js';
import { ToolError, type ErrorCode } from '../contract/result.js';
import { MAX_TEXT_FILE_BYTES, WorkspaceFiles, rebaseGitignore } from './workspace-files.js';
import { versionOf } from './artifact-store.js';
import { codeOf } from '../contract/test-helpers.js';

/** A workspace plus synchronous helpers to arrange it, on disk or in memfs. */
interface Env {
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

async function diskEnv(): Promise<Env> {
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

async function memoryEnv(): Promise<Env> {
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


async function errorOf(promise: Promise<unknown>): Promise<ToolError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

const search = (files: WorkspaceFiles, query: string, options: Partial<SearchOptions> = {}) =>
  files.search({ query, path: '', isRegex: false, caseSensitive: false, maxResults: 200, ...options });

/** The fixture both engines must agree on. */
function buildFixture(env: Env): void {
  env.write('.gitignore', 'build/\n*.log\n/secret.txt\n!keep.log\n');
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

const kinds = [
  ['disk', diskEnv],
  ['memory', memoryEnv],
] as const;

for (const [kind, makeEnv] of kinds) {
  describe(`WorkspaceFiles (${kind})`, () => {
    let env: Env;
    beforeEach(async () => {
      env = await makeEnv();
    });
    afterEach(async () => env.cleanup());

    describe('resolve and stat', () => {
      it('returns the guard’s relative path and refuses paths outside', async () => {
        expect(await env.files.resolve('./src/../a.ts')).toBe('a.ts');
        expect(await env.files.resolve(env.p.join(env.root, 'src', 'x.ts'))).toBe('src/x.ts');
        expect(await codeOf(env.files.resolve('../x'))).toBe('PATH_OUTSIDE_WORKSPACE');
      });

      it('stats files and directories, and says FILE_NOT_FOUND naming the path', async () => {
        env.write('src/a.ts', 'hello');
        expect(await env.files.stat('src/a.ts')).toEqual({ type: 'file', size: 5 });
        expect((await env.files.stat('src')).type).toBe('directory');
        const err = await errorOf(env.files.stat('src/missing.ts'));
        expect(err.code).toBe('FILE_NOT_FOUND');
        expect(err.message).toContain('"src/missing.ts"');
        expect(err.message).toContain('openspace.file.list');
      });
    });

    describe('readText', () => {
      it('reads UTF-8 text and reports the size in bytes', async () => {
        env.write('a.txt', 'héllo\n');
        expect(await env.files.readText('a.txt')).toEqual({ text: 'héllo\n', size: 7, version: versionOf(Buffer.from('héllo\n')) });
      });

      it('reads through a symlink that stays inside', async () => {
        env.write('a.txt', 'target');
        env.symlink('a.txt', 'alias.txt');
        expect((await env.files.readText('alias.txt')).text).toBe('target');
      });

      it('fails with FILE_NOT_FOUND, NOT_A_FILE and PATH_OUTSIDE_WORKSPACE', async () => {
        env.mkdir('dir');
        nodeWrite(env, env.p.join(env.outside, 'secret.txt'), 'secret');
        env.symlink(env.p.join(env.outside, 'secret.txt'), 'leak.txt');
        expect(await codeOf(env.files.readText('nope.txt'))).toBe('FILE_NOT_FOUND');
        expect(await codeOf(env.files.readText('dir'))).toBe('NOT_A_FILE');
        expect(await codeOf(env.files.readText('leak.txt'))).toBe('PATH_OUTSIDE_WORKSPACE');
        expect(await codeOf(env.files.readText('../outside/secret.txt'))).toBe('PATH_OUTSIDE_WORKSPACE');
      });

      it('refuses a NUL byte in the first 8 KiB as BINARY_FILE, but not one after', async () => {
        env.write('early.bin', Buffer.concat([Buffer.alloc(8191, 0x61), Buffer.from([0])]));
        env.write('late.txt', Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])]));
        expect(await codeOf(env.files.readText('early.bin'))).toBe('BINARY_FILE');
        expect((await env.files.readText('late.txt')).size).toBe(8193);
      });

      it('refuses files over 50 MiB as FILE_TOO_LARGE', async () => {
        env.write('big.txt', '');
        env.truncate('big.txt', MAX_TEXT_FILE_BYTES + 1);
        expect(await codeOf(env.files.readText('big.txt'))).toBe('FILE_TOO_LARGE');
        env.truncate('big.txt', MAX_TEXT_FILE_BYTES); // at the limit it is read (and found to be zeros)
        expect(await codeOf(env.files.readText('big.txt'))).toBe('BINARY_FILE');
      });
    });

    describe('writeText', () => {
      it('creates parent directories and reports bytes and created', async () => {
        expect(await env.files.writeText('new/deep/file.txt', 'héllo')).toEqual({ bytes: 6, created: true, version: versionOf(Buffer.from('héllo')) });
        expect(env.read('new/deep/file.txt')).toBe('héllo');
        expect(await env.files.writeText('new/deep/file.txt', 'bye')).toMatchObject({ bytes: 3, created: false });
        expect(env.read('new/deep/file.txt')).toBe('bye');
      });

      it('replaces the file by rename: a hard link keeps the old content, and no temp file is left', async () => {
        env.write('dir/a.txt', 'old');
        env.link('dir/a.txt', 'dir/old-link.txt');
        await env.files.writeText('dir/a.txt', 'new');
        await env.files.writeText('dir/b.txt', 'b');
        expect(env.read('dir/a.txt')).toBe('new');
        expect(env.read('dir/old-link.txt')).toBe('old');
        expect(env.names('dir')).toEqual(['a.txt', 'b.txt', 'old-link.txt']);
      });

      it('keeps the file mode of a file it replaces', async () => {
        env.write('run.sh', 'echo 1');
        env.chmod('run.sh', 0o755);
        await env.files.writeText('run.sh', 'echo 2');
        expect(env.lstat('run.sh').mode & 0o777).toBe(0o755);
      });

      it('writes through a symlink inside to its target, keeping the link', async () => {
        env.write('real.txt', 'one');
        env.symlink('real.txt', 'alias.txt');
        expect(await env.files.writeText('alias.txt', 'two')).toMatchObject({ bytes: 3, created: false });
        expect(env.lstat('alias.txt').isSymbolicLink()).toBe(true);
        expect(env.read('real.txt')).toBe('two');
      });

      it('refuses directories, files as parents, and paths leading outside, leaving nothing behind', async () => {
        env.mkdir('dir');
        env.write('file.txt', 'x');
        env.symlink(env.outside, 'out');
        expect(await codeOf(env.files.writeText('dir', 'x'))).toBe('NOT_A_FILE');
        expect(await codeOf(env.files.writeText('file.txt/child.txt', 'x'))).toBe('NOT_A_DIRECTORY');
        expect(await codeOf(env.files.writeText('out/evil.txt', 'x'))).toBe('PATH_OUTSIDE_WORKSPACE');
        expect(await codeOf(env.files.writeText('../evil.txt', 'x'))).toBe('PATH_OUTSIDE_WORKSPACE');
        expect(env.exists(env.p.join(env.outside, 'evil.txt'))).toBe(false);
        expect(env.names('')).toEqual(['dir', 'file.txt', 'out']);
        expect(env.names('dir')).toEqual([]);
      });

      it('fires onFileWritten with the relative path until disposed', async () => {
        const seen: string[] = [];
        const sub = env.files.onFileWritten((p) => seen.push(p));
        await env.files.writeText(env.p.join(env.root, 'src', 'a.ts'), 'a');
        await env.files.writeText('./b.ts', 'b');
        await env.files.writeText('dir-that-is-not', 'x').catch(() => {});
        sub.dispose();
        await env.files.writeText('c.ts', 'c');
        expect(seen).toEqual(['src/a.ts', 'b.ts', 'dir-that-is-not']);
        expect(await codeOf(env.files.writeText('b.ts/x', 'x'))).toBe('NOT_A_DIRECTORY');
        expect(seen).toHaveLength(3);
      });
    });

    describe('list', () => {
      beforeEach(() => buildFixture(env));

      it('lists one directory, directories first then by name, with sizes for files', async () => {
        const { files, truncated } = await env.files.list('', { recursive: false, limit: 100 });
        expect(truncated).toBe(false);
        expect(files.map((f) => f.name)).toEqual([
          '.config', '.git', 'a', 'build', 'docs', 'src', 'vendor', '.gitignore', 'a.b', 'a.ts', 'bin.dat', 'crlf.txt',
          'debug.log', 'keep.log', 'late-bin.dat', 'link-dir', 'link-to-a.ts', 'long.txt', 'README.md', 'regex.txt',
          'secret.txt', 'unicode.txt',
        ]);
        expect(files.find((f) => f.name === 'a.ts')).toEqual({ path: 'a.ts', name: 'a.ts', type: 'file', size: 39 });
        expect(files.find((f) => f.name === 'src')).toEqual({ path: 'src', name: 'src', type: 'directory' });
        expect(files.find((f) => f.name === 'link-dir')).toEqual({ path: 'link-dir', name: 'link-dir', type: 'symlink' });
      });

      it('returns workspace-relative paths for a subdirectory', async () => {
        const { files } = await env.files.list('src/sub', { recursive: false, limit: 100 });
        expect(files.map((f) => f.path)).toEqual([
          'src/sub/gen', 'src/sub/.gitignore', 'src/sub/deep.ts', 'src/sub/important.log', 'src/sub/local.ts', 'src/sub/noise.log',
        ]);
      });

      it('walks depth-first, skipping .git and ignored entries, not following symlinked directories', async () => {
        const { files, truncated } = await env.files.list('', { recursive: true, limit: 1000 });
        expect(truncated).toBe(false);
        expect(files.map((f) => f.path)).toEqual([
          '.config', '.config/settings.json',
          'a', 'a/b.ts',
          'docs', 'docs/secret.txt',
          'src', 'src/sub', 'src/sub/.gitignore', 'src/sub/deep.ts', 'src/sub/important.log', 'src/sub/local.ts',
          'src/.gitignore', 'src/index.ts', 'src/util.test.ts',
          'vendor', 'vendor/lib.js',
          '.gitignore', 'a.b', 'a.ts', 'bin.dat', 'crlf.txt', 'keep.log', 'late-bin.dat', 'link-dir', 'link-to-a.ts',
          'long.txt', 'README.md', 'regex.txt', 'unicode.txt',
        ]);
      });

      it('applies the root .gitignore when listing a subdirectory recursively', async () => {
        const { files } = await env.files.list('src', { recursive: true, limit: 1000 });
        expect(files.map((f) => f.path)).toEqual([
          'src/sub', 'src/sub/.gitignore', 'src/sub/deep.ts', 'src/sub/important.log', 'src/sub/local.ts',
          'src/.gitignore', 'src/index.ts', 'src/util.test.ts',
        ]);
        expect((await env.files.list('build', { recursive: true, limit: 10 })).files).toEqual([]);
      });

      it('stops at the limit and says truncated', async () => {
        const all = await env.files.list('', { recursive: true, limit: 1000 });
        const some = await env.files.list('', { recursive: true, limit: 5 });
        expect(some.truncated).toBe(true);
        expect(some.files).toEqual(all.files.slice(0, 5));
        const exact = await env.files.list('', { recursive: true, limit: all.files.length });
        expect(exact.truncated).toBe(false);
        expect((await env.files.list('', { recursive: false, limit: 3 })).truncated).toBe(true);
      });

      it('fails with FILE_NOT_FOUND and NOT_A_DIRECTORY', async () => {
        expect(await codeOf(env.files.list('nope', { recursive: false, limit: 10 }))).toBe('FILE_NOT_FOUND');
        expect(await codeOf(env.files.list('a.ts', { recursive: true, limit: 10 }))).toBe('NOT_A_DIRECTORY');
      });
    });

    describe('search', () => {
      beforeEach(() => buildFixture(env));
      const where = (r: { matches: { path: string; line: number }[] }) => r.matches.map((m) => `${m.path}:${m.line}`);

      it('finds text case-insensitively by default, honouring .gitignore, skipping binaries and symlinks', async () => {
        const result = await search(env.files, 'needle');
        expect(result.truncated).toBe(false);
        expect(where(result)).toEqual([
          '.config/settings.json:1', 'a/b.ts:1', 'a.ts:1', 'a.ts:2', 'crlf.txt:1', 'docs/secret.txt:1', 'keep.log:1', 'long.txt:1',
          'src/index.ts:1', 'src/index.ts:2', 'src/sub/deep.ts:3', 'src/sub/important.log:1', 'src/sub/local.ts:1',
          'src/util.test.ts:1', 'unicode.txt:1', 'vendor/lib.js:1',
        ]);
      });

      it('gives 1-based columns in characters and the line without its line break, cut to 500', async () => {
        const { matches } = await search(env.files, 'needle');
        const at = (path: string) => matches.find((m) => m.path === path)!;
        expect(at('a.ts')).toEqual({ path: 'a.ts', line: 1, column: 7, text: 'const needle = 1;' });
        expect(at('unicode.txt').column).toBe(13);
        expect(at('crlf.txt').text).toBe('needle crlf');
        expect(at('long.txt')).toEqual({ path: 'long.txt', line: 1, column: 601, text: 'x'.repeat(500) });
      });

      it('matches case-sensitively when asked', async () => {
        expect(where(await search(env.files, 'NEEDLE', { caseSensitive: true }))).toEqual(['src/index.ts:2']);
      });

      it('searches literally unless isRegex, and reports invalid regexes as INVALID_ARGUMENT', async () => {
        expect(where(await search(env.files, 'a.b'))).toEqual(['a.b:1']);
        expect(where(await search(env.files, 'a.b', { isRegex: true }))).toEqual(['a.b:1', 'a.b:2']);
        expect(where(await search(env.files, 'ne{2,3}dle', { isRegex: true, path: '' }))).toContain('regex.txt:1');
        expect(where(await search(env.files, 'ne{3}dle', { isRegex: true }))).toEqual(['regex.txt:1']);
        expect(await search(env.files, 'ne{3}dle')).toEqual({ matches: [], truncated: false });
        const err = await errorOf(search(env.files, 'needle(', { isRegex: true }));
        expect(err.code).toBe('INVALID_ARGUMENT');
        expect(err.message).toMatch(/regular expression/);
      });

      it('filters with include and exclude globs relative to the root', async () => {
        const ts = ['a/b.ts:1', 'a.ts:1', 'a.ts:2', 'src/index.ts:1', 'src/index.ts:2', 'src/sub/deep.ts:3', 'src/sub/local.ts:1', 'src/util.test.ts:1'];
        expect(where(await search(env.files, 'needle', { includePattern: '**/*.ts' }))).toEqual(ts);
        expect(where(await search(env.files, 'needle', { includePattern: '*.ts' }))).toEqual(ts);
        expect(where(await search(env.files, 'needle', { includePattern: 'src/**' }))).toEqual([
          'src/index.ts:1', 'src/index.ts:2', 'src/sub/deep.ts:3', 'src/sub/important.log:1', 'src/sub/local.ts:1', 'src/util.test.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: 'src/*.ts' }))).toEqual([
          'src/index.ts:1', 'src/index.ts:2', 'src/util.test.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { includePattern: '**/*.ts', excludePattern: '**/*.test.ts' }))).toEqual(
          ts.filter((m) => !m.startsWith('src/util.test.ts')),
        );
        expect(where(await search(env.files, 'needle', { excludePattern: 'src' }))).not.toContain('src/index.ts:1');
        expect(where(await search(env.files, 'needle', { excludePattern: 'vendor' }))).not.toContain('vendor/lib.js:1');
        expect(where(await search(env.files, 'needle', { excludePattern: 'vendor' }))).toContain('a.ts:1');
      });

      it('restricts to a directory, applying .gitignore files above it', async () => {
        expect(where(await search(env.files, 'needle', { path: 'src' }))).toEqual([
          'src/index.ts:1', 'src/index.ts:2', 'src/sub/deep.ts:3', 'src/sub/important.log:1', 'src/sub/local.ts:1', 'src/util.test.ts:1',
        ]);
        expect(where(await search(env.files, 'needle', { path: 'src/sub' }))).toEqual([
          'src/sub/deep.ts:3', 'src/sub/important.log:1', 'src/sub/local.ts:1',
        ]);
        expect(await search(env.files, 'needle', { path: 'build' })).toEqual({ matches: [], truncated: false });
        expect(await codeOf(search(env.files, 'needle', { path: 'nope' }))).toBe('FILE_NOT_FOUND');
        expect(await codeOf(search(env.files, 'needle', { path: 'a.ts' }))).toBe('NOT_A_DIRECTORY');
        expect(await codeOf(search(env.files, 'needle', { path: '../outside' }))).toBe('PATH_OUTSIDE_WORKSPACE');
      });

      it('stops at maxResults and says truncated, keeping the first matches in path order', async () => {
        const all = await search(env.files, 'needle');
        for (const max of [1, 2, 3, 7]) {
          const some = await search(env.files, 'needle', { maxResults: max });
          expect(some.truncated).toBe(true);
          expect(some.matches).toEqual(all.matches.slice(0, max));
        }
        const exact = await search(env.files, 'needle', { maxResults: all.matches.length });
        expect(exact).toEqual({ matches: all.matches, truncated: false });
      });

      // Valid for JavaScript, not for PCRE2: only the disk engine finds out, from ripgrep.
      if (kind === 'disk') {
        it('reports ripgrep’s own regex errors as INVALID_ARGUMENT', async () => {
          const err = await errorOf(search(env.files, 'needle[^]', { isRegex: true }));
          expect(err.code).toBe('INVALID_ARGUMENT');
        });
      }

      it('rejects queries with line breaks', async () => {
        expect(await codeOf(search(env.files, 'a\nb'))).toBe('INVALID_ARGUMENT');
      });
    });
  });
}

/** Write a file anywhere on the env's file system (outside the workspace too). */
function nodeWrite(env: Env, abs: string, text: string): void {
  const rel = env.p.relative(env.root, abs);
  env.write(rel.split(env.p.sep).join('/'), text);
}

describe('disk (ripgrep) and memory (walk) search agree', () => {
  let disk: Env;
  let memory: Env;
  beforeAll(async () => {
    disk = await diskEnv();
    memory = await memoryEnv();
    buildFixture(disk);
    buildFixture(memory);
  });
  afterAll(async () => disk.cleanup());

  const cases: [string, Partial<SearchOptions>][] = [
    ['needle', {}],
    ['NEEDLE', { caseSensitive: true }],
    ['Needle', { caseSensitive: true }],
    ['a.b', {}],
    ['a.b', { isRegex: true }],
    ['ne+dle', { isRegex: true }],
    ['^\\s*(const|export)\\b', { isRegex: true }],
    ['needle', { includePattern: '**/*.ts' }],
    ['needle', { includePattern: '*.ts' }],
    ['needle', { includePattern: 'src/**' }],
    ['needle', { includePattern: 'src' }],
    ['needle', { includePattern: '*.{log,txt}' }],
    ['needle', { excludePattern: '**/*.test.ts' }],
    ['needle', { excludePattern: 'vendor' }],
    ['needle', { excludePattern: 'src/sub/**' }],
    ['needle', { excludePattern: '*.txt', includePattern: 'src/**' }],
    ['needle', { path: 'src' }],
    ['needle', { path: 'src/sub' }],
    ['needle', { path: 'src/sub', includePattern: '*.log' }],
    ['needle', { path: 'a' }],
    ['needle', { path: 'build' }],
    ['needle', { path: 'link-dir' }],
    ['needle', { maxResults: 1 }],
    ['needle', { maxResults: 2 }],
    ['needle', { maxResults: 4 }],
    ['e', { maxResults: 10 }],
    ['x', {}],
    ['nothing-matches-this', {}],
    ['--hidden', {}],
    ['= 1;', { isRegex: false }],
  ];

  it.each(cases)('%j %j', async (query, options) => {
    const [d, m] = await Promise.all([search(disk.files, query, options), search(memory.files, query, options)]);
    expect(d).toEqual(m);
  });

  it('is not vacuous: the broad query finds matches in both', async () => {
    const d = await search(disk.files, 'needle');
    expect(d.matches.length).toBeGreaterThan(10);
    expect(d.matches.map((x) => x.path)).toContain('src/sub/important.log');
  });

  it('lists the same tree recursively', async () => {
    const [d, m] = await Promise.all([
      disk.files.list('', { recursive: true, limit: 1000 }),
      memory.files.list('', { recursive: true, limit: 1000 }),
    ]);
    expect(d).toEqual(m);
  });
});

describe('rebaseGitignore', () => {
  it('anchors patterns of a nested .gitignore at its directory', () => {
    expect(rebaseGitignore('# c\n\n*.log\n/local.ts\ngen/\n!keep.log\na/b\n', 'src/sub')).toBe(
      '/src/sub/**/*.log\n/src/sub/local.ts\n/src/sub/**/gen/\n!/src/sub/**/keep.log\n/src/sub/a/b\n',
    );
    expect(rebaseGitignore('x\n', '')).toBe('x\n');
    expect(rebaseGitignore('x\n', 'we*rd')).toBe('/we\\*rd/**/x\n');
  });
});
