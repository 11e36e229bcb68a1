import * as nodeFs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import nodePath from 'node:path';
import fc from 'fast-check';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../contract/result.js';
import { PathGuard, type FsLike } from './path-guard.js';
import { codeOf } from '../contract/test-helpers.js';

/** A file system to build fixtures in, synchronously, plus what the guard gets. */
interface Env {
  fs: FsLike;
  p: nodePath.PlatformPath;
  base: string;
  mkdir(path: string): void;
  write(path: string, text: string): void;
  symlink(target: string, path: string): void;
  realpath(path: string): string;
  cleanup(): Promise<void>;
}

async function diskEnv(): Promise<Env> {
  const base = await mkdtemp(nodePath.join(os.tmpdir(), 'openspace-guard-'));
  return {
    fs: nodeFs.promises,
    p: nodePath,
    base,
    mkdir: (p) => nodeFs.mkdirSync(p, { recursive: true }),
    write: (p, t) => nodeFs.writeFileSync(p, t),
    symlink: (t, p) => nodeFs.symlinkSync(t, p),
    realpath: (p) => nodeFs.realpathSync(p),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

function memoryEnv(): Env {
  const vol = new Volume();
  const fs = createFsFromVolume(vol);
  vol.mkdirSync('/base', { recursive: true });
  return {
    fs: fs.promises,
    p: nodePath.posix,
    base: '/base',
    mkdir: (p) => vol.mkdirSync(p, { recursive: true }),
    write: (p, t) => vol.writeFileSync(p, t),
    symlink: (t, p) => vol.symlinkSync(t, p),
    realpath: (p) => String(vol.realpathSync(p)),
    cleanup: async () => {},
  };
}

for (const [kind, makeEnv] of [
  ['disk', diskEnv],
  ['memory', async () => memoryEnv()],
] as const) {
  describe(`PathGuard over ${kind}`, () => {
    let env: Env;
    let root: string;
    let outside: string;
    let guard: PathGuard;
    const j = (...parts: string[]) => env.p.join(...parts);

    beforeAll(async () => {
      env = await makeEnv();
      root = j(env.base, 'ws');
      outside = j(env.base, 'outside');
      env.mkdir(j(root, 'src'));
      env.mkdir(j(env.base, 'ws-evil'));
      env.mkdir(j(outside, 'dir'));
      env.write(j(root, 'a.ts'), 'a');
      env.write(j(root, 'src', 'b.ts'), 'b');
      env.write(j(env.base, 'ws-evil', 'x.ts'), 'evil');
      env.write(j(outside, 'secret.txt'), 'secret');
      env.symlink('src', j(root, 'link-src')); // inside → inside (relative target)
      env.symlink(j(root, 'a.ts'), j(root, 'link-a.ts')); // inside → inside (absolute target)
      env.symlink(j(outside, 'secret.txt'), j(root, 'secret.txt')); // file outside
      env.symlink(outside, j(root, 'out-dir')); // directory outside
      env.symlink(j(outside, 'missing.txt'), j(root, 'dangle-out')); // dangling, outside
      env.symlink('src/not-yet.ts', j(root, 'dangle-in')); // dangling, inside
      env.symlink('dangle-out', j(root, 'chain')); // link to a dangling link to outside
      // Kernel semantics: out-dir/dir/.. is outside/, so this dangling link leads outside even though
      // a lexical reading (ws/out-dir/dir/../nothing = ws/out-dir/nothing) would not tell.
      env.symlink('out-dir/dir/../../ws/../outside/nothing', j(root, 'sneaky'));
      env.symlink('loop-b', j(root, 'loop-a'));
      env.symlink('loop-a', j(root, 'loop-b'));
      env.symlink(root, j(env.base, 'ws-link')); // the root reached through a symlink
      guard = await PathGuard.create(env.fs, root, { path: env.p });
    });
    afterAll(async () => env.cleanup());

    it.each([
      ['a.ts', 'a.ts'],
      ['./src/../a.ts', 'a.ts'],
      ['src/b.ts', 'src/b.ts'],
      ['src//b.ts', 'src/b.ts'],
      ['src/', 'src'],
      ['.', ''],
      ['src/new/deeper.ts', 'src/new/deeper.ts'],
    ])('accepts %j as %j', async (input, relative) => {
      const resolved = await guard.resolve(input);
      expect(resolved.relative).toBe(relative);
      expect(resolved.absolute).toBe(relative === '' ? root : j(root, ...relative.split('/')));
    });

    it('accepts absolute paths inside, and the root itself as ""', async () => {
      expect((await guard.resolve(j(root, 'src', 'b.ts'))).relative).toBe('src/b.ts');
      expect((await guard.resolve(root)).relative).toBe('');
      expect((await guard.resolve(root + env.p.sep)).relative).toBe('');
    });

    it('reports the real path of existing paths and none for missing ones', async () => {
      const realRoot = env.realpath(root);
      expect((await guard.resolve('a.ts')).real).toBe(env.p.join(realRoot, 'a.ts'));
      expect((await guard.resolve('src/new.ts')).real).toBeUndefined();
      expect((await guard.resolve('a.ts/child')).real).toBeUndefined();
    });

    it.each(['../etc/passwd', 'src/../../etc/passwd', '..', '/etc/passwd'])('rejects %j', async (input) => {
      expect(await codeOf(guard.resolve(input))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('rejects a sibling directory that shares the root as a string prefix', async () => {
      expect(await codeOf(guard.resolve(j(env.base, 'ws-evil')))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(guard.resolve(j(env.base, 'ws-evil', 'x.ts')))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(guard.resolve('../ws-evil/x.ts'))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('names the path and says to stay inside the workspace', async () => {
      const err = await guard.resolve('../etc/passwd').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ToolError);
      expect((err as ToolError).message).toContain('"../etc/passwd"');
      expect((err as ToolError).message).toMatch(/must stay inside the workspace/);
    });

    it('accepts symlinks that stay inside, keeping the lexical relative path', async () => {
      const realRoot = env.realpath(root);
      const viaDir = await guard.resolve('link-src/b.ts');
      expect(viaDir.relative).toBe('link-src/b.ts');
      expect(viaDir.real).toBe(env.p.join(realRoot, 'src', 'b.ts'));
      expect((await guard.resolve('link-a.ts')).real).toBe(env.p.join(realRoot, 'a.ts'));
      expect((await guard.resolve('link-src/new/file.ts')).real).toBeUndefined();
      expect((await guard.resolve('dangle-in')).relative).toBe('dangle-in');
    });

    it('rejects a symlink to a file outside', async () => {
      expect(await codeOf(guard.resolve('secret.txt'))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('rejects a symlinked directory leading outside, with existing and missing children', async () => {
      expect(await codeOf(guard.resolve('out-dir'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(guard.resolve('out-dir/secret.txt'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(guard.resolve('out-dir/new.ts'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(guard.resolve('out-dir/new/deeper.ts'))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('rejects dangling symlinks that point outside, also through a chain of links', async () => {
      expect(await codeOf(guard.resolve('dangle-out'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(guard.resolve('chain'))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('applies .. in a dangling link target physically, after following symlinks', async () => {
      expect(await codeOf(guard.resolve('sneaky'))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('rejects NUL bytes as INVALID_ARGUMENT', async () => {
      expect(await codeOf(guard.resolve('a\0.ts'))).toBe('INVALID_ARGUMENT');
    });

    it('rejects symlink loops as INVALID_ARGUMENT instead of spinning', async () => {
      expect(await codeOf(guard.resolve('loop-a'))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(guard.resolve('loop-a/x'))).toBe('INVALID_ARGUMENT');
    });

    it('works with a root given through a symlink, accepting the real location too', async () => {
      const linked = await PathGuard.create(env.fs, j(env.base, 'ws-link'), { path: env.p });
      expect((await linked.resolve('src/b.ts')).relative).toBe('src/b.ts');
      expect((await linked.resolve(j(env.realpath(root), 'a.ts'))).relative).toBe('a.ts');
      expect(await codeOf(linked.resolve('out-dir/x'))).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('compares case-insensitively only when asked', async () => {
      const upper = j(root.toUpperCase(), 'src', 'new.ts');
      expect(await codeOf(guard.resolve(upper))).toBe('PATH_OUTSIDE_WORKSPACE');
      const folding = await PathGuard.create(env.fs, root, { path: env.p, caseInsensitive: true });
      expect(await codeOf(folding.resolve(upper))).toBe('none');
    });

    it('fails to construct over a missing root', async () => {
      await expect(PathGuard.create(env.fs, j(env.base, 'nope'), { path: env.p })).rejects.toThrow(/cannot be resolved/);
    });
  });
}

describe('PathGuard property (memfs trees with symlinks)', () => {
  const p = nodePath.posix;
  const ROOT = '/w/root';
  const OUT = '/w/out';
  const insideDirs = ['', 'a', 'b', 'a/c', 'b/d'];
  const linkNames = ['l0', 'l1', 'l2', 'l3'];
  const targets = [
    ...insideDirs.map((d) => p.join(ROOT, d)),
    'a',
    '../a',
    '../../out',
    '..',
    'c/../../b',
    OUT,
    p.join(OUT, 'e'),
    p.join(OUT, 'missing'),
    'missing/../..',
    'l0',
    'l1/..',
    'f.ts',
    '/w/root/../out/e',
  ];
  const components = ['a', 'b', 'c', 'd', 'e', 'f.ts', 'new', '..', '.', ...linkNames];

  const treeArb = fc.array(
    fc.record({
      dir: fc.constantFrom(...insideDirs),
      name: fc.constantFrom(...linkNames),
      target: fc.constantFrom(...targets),
    }),
    { maxLength: 6 },
  );
  const pathArb = fc.record({
    absolute: fc.boolean(),
    parts: fc.array(fc.constantFrom(...components), { minLength: 1, maxLength: 6 }),
  });

  function build(links: { dir: string; name: string; target: string }[]) {
    const vol = new Volume();
    for (const d of insideDirs) vol.mkdirSync(p.join(ROOT, d), { recursive: true });
    vol.mkdirSync(p.join(OUT, 'e'), { recursive: true });
    vol.writeFileSync(p.join(ROOT, 'a', 'f.ts'), 'in');
    vol.writeFileSync(p.join(OUT, 'e', 'f.ts'), 'out');
    for (const { dir, name, target } of links) {
      const at = p.join(ROOT, dir, name);
      if (!vol.existsSync(at) && !isLink(vol, at)) vol.symlinkSync(target, at);
    }
    return vol;
  }

  function isLink(vol: Volume, path: string): boolean {
    try {
      return vol.lstatSync(path).isSymbolicLink();
    } catch {
      return false;
    }
  }

  /** Oracle: realpath of the longest existing prefix of the lexical path, by memfs itself. */
  function realOfLongestPrefix(vol: Volume, absolute: string): { real: string; whole: boolean } {
    let prefix = absolute;
    const rest: string[] = [];
    for (;;) {
      try {
        return { real: p.join(String(vol.realpathSync(prefix)), ...rest), whole: rest.length === 0 };
      } catch {
        rest.unshift(p.basename(prefix));
        prefix = p.dirname(prefix);
      }
    }
  }

  const inside = (path: string) => path === ROOT || path.startsWith(ROOT + '/');

  it('accepts only paths whose existing prefix is really inside, and every existing inside path', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, pathArb, async (links, { absolute, parts }) => {
        const vol = build(links);
        const guard = await PathGuard.create(createFsFromVolume(vol).promises, ROOT, { path: p });
        const input = absolute ? p.join(ROOT, ...parts) : parts.join('/');
        const lexical = p.resolve(ROOT, input);
        const oracle = realOfLongestPrefix(vol, lexical);
        let accepted: Awaited<ReturnType<PathGuard['resolve']>> | undefined;
        try {
          accepted = await guard.resolve(input);
        } catch (err) {
          if (!(err instanceof ToolError)) throw err;
          expect(['PATH_OUTSIDE_WORKSPACE', 'INVALID_ARGUMENT']).toContain(err.code);
        }
        if (accepted) {
          expect(inside(lexical)).toBe(true);
          expect(inside(oracle.real)).toBe(true);
          expect(accepted.absolute).toBe(lexical);
          if (oracle.whole) expect(accepted.real).toBe(oracle.real);
          else expect(accepted.real).toBeUndefined();
        } else if (inside(lexical) && oracle.whole) {
          // An existing path whose realpath stays inside must not be refused.
          expect(inside(oracle.real)).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('PathGuard under a link swapped between lstat and readlink', () => {
  /** memfs whose readlink of one path first fails as if the link had just been replaced, `times` times. */
  function racing(code: 'EINVAL' | 'ENOENT', times: number) {
    // A dangling link: realpath fails on it, so the guard walks it with lstat and readlink.
    const vol = Volume.fromJSON({ '/ws/src/a.ts': 'x' });
    const fs = createFsFromVolume(vol).promises;
    vol.symlinkSync('/ws/made-later', '/ws/link');
    let left = times;
    const guardFs: FsLike = {
      realpath: (p) => fs.realpath(p) as Promise<string>,
      lstat: (p) => fs.lstat(p),
      readlink: async (p) => {
        if (p === '/ws/link' && left-- > 0) throw Object.assign(new Error(`${code}: swapped`), { code });
        return fs.readlink(p) as Promise<string>;
      },
    };
    return PathGuard.create(guardFs, '/ws', { path: nodePath.posix });
  }

  it.for(['EINVAL', 'ENOENT'] as const)('a %s from readlink is looked at again, not an internal error', async (code) => {
    const guard = await racing(code, 1);
    await expect(guard.resolve('link/new.ts')).resolves.toMatchObject({ relative: 'link/new.ts', real: undefined });
  });

  it('a link that keeps changing ends as too many levels of links (INVALID_ARGUMENT)', async () => {
    const guard = await racing('EINVAL', 1000);
    expect(await codeOf(guard.resolve('link/new.ts'))).toBe('INVALID_ARGUMENT');
  });
});
