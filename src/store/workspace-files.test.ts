import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_TEXT_FILE_BYTES } from './workspace-files.js';
import { versionOf } from './artifact-store.js';
import { codeOf } from '../contract/test-helpers.js';
import { buildFixture, errorOf, freshEnvEachTest, kinds, type Env } from './test-helpers.js';

for (const [kind, makeEnv] of kinds) {
  describe(`WorkspaceFiles (${kind})`, () => {
    let env: Env;
    freshEnvEachTest(makeEnv, (made) => (env = made));

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
        expect(await env.files.writeText('new/deep/file.txt', 'héllo')).toEqual({
          bytes: 6,
          created: true,
          version: versionOf(Buffer.from('héllo')),
        });
        expect(env.read('new/deep/file.txt')).toBe('héllo');
        expect(await env.files.writeText('new/deep/file.txt', 'bye')).toMatchObject({ bytes: 3, created: false });
        expect(env.read('new/deep/file.txt')).toBe('bye');
      });

      it('with baseVersion, writes only over that version: else CONFLICT with currentVersion, the file as it was', async () => {
        env.write('deck.md', 'one');
        const { version } = await env.files.readText('deck.md');
        env.write('deck.md', 'two');
        const stale = await errorOf(env.files.writeText('deck.md', 'three', { baseVersion: version }));
        expect(stale.code).toBe('CONFLICT');
        expect(stale.details.currentVersion).toBe(versionOf(Buffer.from('two')));
        expect(env.read('deck.md')).toBe('two');
        const current = (await env.files.readText('deck.md')).version;
        expect((await env.files.writeText('deck.md', 'three', { baseVersion: current })).created).toBe(false);
        expect(env.read('deck.md')).toBe('three');
        expect(await codeOf(env.files.writeText('gone.md', 'x', { baseVersion: current }))).toBe('CONFLICT');
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
          '.config',
          '.git',
          'a',
          'build',
          'docs',
          'src',
          'vendor',
          '.gitignore',
          'a.b',
          'a.ts',
          'bin.dat',
          'crlf.txt',
          'debug.log',
          'keep.log',
          'late-bin.dat',
          'link-dir',
          'link-to-a.ts',
          'long.txt',
          'README.md',
          'regex.txt',
          'secret.txt',
          'unicode.txt',
        ]);
        expect(files.find((f) => f.name === 'a.ts')).toEqual({ path: 'a.ts', name: 'a.ts', type: 'file', size: 39 });
        expect(files.find((f) => f.name === 'src')).toEqual({ path: 'src', name: 'src', type: 'directory' });
        expect(files.find((f) => f.name === 'link-dir')).toEqual({ path: 'link-dir', name: 'link-dir', type: 'symlink' });
      });

      it('returns workspace-relative paths for a subdirectory', async () => {
        const { files } = await env.files.list('src/sub', { recursive: false, limit: 100 });
        expect(files.map((f) => f.path)).toEqual([
          'src/sub/gen',
          'src/sub/.gitignore',
          'src/sub/deep.ts',
          'src/sub/important.log',
          'src/sub/local.ts',
          'src/sub/noise.log',
        ]);
      });

      it('walks depth-first, skipping .git and ignored entries, not following symlinked directories', async () => {
        const { files, truncated } = await env.files.list('', { recursive: true, limit: 1000 });
        expect(truncated).toBe(false);
        expect(files.map((f) => f.path)).toEqual([
          '.config',
          '.config/settings.json',
          'a',
          'a/b.ts',
          'docs',
          'docs/secret.txt',
          'src',
          'src/sub',
          'src/sub/.gitignore',
          'src/sub/deep.ts',
          'src/sub/important.log',
          'src/sub/local.ts',
          'src/.gitignore',
          'src/index.ts',
          'src/util.test.ts',
          'vendor',
          'vendor/lib.js',
          '.gitignore',
          'a.b',
          'a.ts',
          'bin.dat',
          'crlf.txt',
          'keep.log',
          'late-bin.dat',
          'link-dir',
          'link-to-a.ts',
          'long.txt',
          'README.md',
          'regex.txt',
          'unicode.txt',
        ]);
      });

      it('applies the root .gitignore when listing a subdirectory recursively', async () => {
        const { files } = await env.files.list('src', { recursive: true, limit: 1000 });
        expect(files.map((f) => f.path)).toEqual([
          'src/sub',
          'src/sub/.gitignore',
          'src/sub/deep.ts',
          'src/sub/important.log',
          'src/sub/local.ts',
          'src/.gitignore',
          'src/index.ts',
          'src/util.test.ts',
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
  });
}

/** Write a file anywhere on the env's file system (outside the workspace too). */
function nodeWrite(env: Env, abs: string, text: string): void {
  const rel = env.p.relative(env.root, abs);
  env.write(rel.split(env.p.sep).join('/'), text);
}
