import * as nodeFs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import nodePath from 'node:path';
import { Worker } from 'node:worker_threads';
import { createFsFromVolume, Volume } from 'memfs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SNAPSHOTS, type PatchOperation } from '../families/file/tools.js';
import { ToolError } from '../contract/index.js';
import { codeOf } from '../contract/test-helpers.js';
import type { AuditEntry } from '../security/audit-log.js';
import { SNAPSHOT_DIR, sha256, versionOf, WRITE_DIRS_FILE } from './artifact-store.js';
import { TEMP_FILE } from './file-access.js';
import { applyPatch } from './patch-engine.js';
import { WorkspaceFiles } from './workspace-files.js';

interface Env {
  root: string;
  outside: string;
  fs: typeof nodeFs;
  p: nodePath.PlatformPath;
  audit: AuditEntry[];
  files: WorkspaceFiles;
  open(): Promise<WorkspaceFiles>;
  cleanup(): Promise<void>;
}

async function diskEnv(): Promise<Env> {
  const base = nodeFs.realpathSync(await mkdtemp(nodePath.join(os.tmpdir(), 'openspace-store-')));
  const root = nodePath.join(base, 'ws');
  const outside = nodePath.join(base, 'outside');
  nodeFs.mkdirSync(root);
  nodeFs.mkdirSync(outside);
  const audit: AuditEntry[] = [];
  const open = () => WorkspaceFiles.create({ fs: nodeFs, root, kind: 'disk', audit: { record: (e) => audit.push(e) } });
  const files = await open();
  const cleanup = async () => {
    await files.dispose(); // snapshots of the last writes may still be being kept
    await rm(base, { recursive: true, force: true });
  };
  return { root, outside, fs: nodeFs, p: nodePath, audit, files, open, cleanup };
}

async function memoryEnv(): Promise<Env> {
  const vol = new Volume();
  vol.mkdirSync('/w/ws', { recursive: true });
  vol.mkdirSync('/w/outside', { recursive: true });
  const fs = createFsFromVolume(vol) as unknown as typeof nodeFs;
  const audit: AuditEntry[] = [];
  const open = () => WorkspaceFiles.create({ fs, root: '/w/ws', kind: 'memory', audit: { record: (e) => audit.push(e) } });
  return { root: '/w/ws', outside: '/w/outside', fs, p: nodePath.posix, audit, files: await open(), open, cleanup: async () => {} };
}

const at = (env: Env, rel: string) => env.p.join(env.root, ...rel.split('/'));
const put = (env: Env, rel: string, content: string | Buffer) => {
  env.fs.mkdirSync(env.p.dirname(at(env, rel)), { recursive: true });
  env.fs.writeFileSync(at(env, rel), content);
};
const get = (env: Env, rel: string) => env.fs.readFileSync(at(env, rel), 'utf8');

async function conflictOf(promise: Promise<unknown>): Promise<{ code: string; currentVersion?: unknown }> {
  try {
    await promise;
    return { code: 'none' };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    return { code: err.code, currentVersion: err.details.currentVersion };
  }
}

for (const [kind, makeEnv] of [
  ['disk', diskEnv],
  ['memory', memoryEnv],
] as const) {
  describe(`ArtifactStore through WorkspaceFiles (${kind})`, () => {
    let env: Env;
    beforeEach(async () => {
      env = await makeEnv();
    });
    afterEach(async () => env.cleanup());

    it('versions are content hashes: file.read, write and patch agree on them', async () => {
      const written = await env.files.writeText('a.txt', 'one\ntwo\n');
      expect(written.version).toBe(versionOf(Buffer.from('one\ntwo\n')));
      expect((await env.files.readText('a.txt')).version).toBe(written.version);
      const patched = await env.files.patch('a.txt', { baseVersion: written.version, operations: [{ type: 'append', content: 'three' }] });
      expect(patched).toEqual({ version: versionOf(Buffer.from('one\ntwo\nthree\n')), bytes: 14, totalLines: 3 });
      expect(get(env, 'a.txt')).toBe('one\ntwo\nthree\n');
    });

    it('a patch on a stale version is a CONFLICT that names the current version, and writes nothing', async () => {
      const v1 = (await env.files.writeText('a.txt', 'one\n')).version;
      const v2 = (await env.files.writeText('a.txt', 'two\n')).version;
      const refused = await conflictOf(env.files.patch('a.txt', { baseVersion: v1, operations: [{ type: 'append', content: 'x' }] }));
      expect(refused).toEqual({ code: 'CONFLICT', currentVersion: v2 });
      expect(get(env, 'a.txt')).toBe('two\n');
      const gone = await conflictOf(env.files.patch('missing.txt', { baseVersion: v1, operations: [{ type: 'append', content: 'x' }] }));
      expect(gone).toEqual({ code: 'CONFLICT', currentVersion: null });
      expect(env.fs.existsSync(at(env, 'missing.txt'))).toBe(false);
    });

    it('an edit made outside the store changes the version, and a patch on the old one conflicts', async () => {
      const before = (await env.files.writeText('src/a.ts', 'const a = 1;\n')).version;
      put(env, 'src/a.ts', 'const a = 2; // edited by a person\n');
      const after = (await env.files.readText('src/a.ts')).version;
      expect(after).not.toBe(before);
      const refused = await conflictOf(
        env.files.patch('src/a.ts', { baseVersion: before, operations: [{ type: 'delete', startLine: 1, endLine: 1 }] }),
      );
      expect(refused).toEqual({ code: 'CONFLICT', currentVersion: after });
      expect(get(env, 'src/a.ts')).toBe('const a = 2; // edited by a person\n');
      // The outside edit is kept as a snapshot when the store next writes over it.
      await env.files.patch('src/a.ts', { baseVersion: after, operations: [{ type: 'append', content: 'export { a };' }] });
      const { snapshots } = await env.files.snapshots('src/a.ts');
      expect(snapshots.map((s) => s.source)).toEqual(['openspace.file.patch', 'outside', 'openspace.file.write']);
      expect(snapshots[1]!.version).toBe(after);
    });

    it('ten writers with twenty patches each, retrying on CONFLICT: every patch applied once, the result is the serial one', async () => {
      const initial = 'count: 0\n';
      const start = (await env.files.writeText('shared.txt', initial)).version;
      const accepted = new Map<string, { next: string; ops: PatchOperation[] }>();
      let conflicts = 0;
      await Promise.all(
        Array.from({ length: 10 }, async (_, writer) => {
          for (let j = 0; j < 20; j++) {
            for (;;) {
              const { text, version } = await env.files.readText('shared.txt');
              const count = Number(/^count: (\d+)/.exec(text)![1]);
              const ops: PatchOperation[] = [
                { type: 'replace', startLine: 1, endLine: 1, content: `count: ${count + 1}` },
                { type: 'append', content: `writer ${writer} patch ${j}` },
              ];
              try {
                const result = await env.files.patch(
                  'shared.txt',
                  { baseVersion: version, operations: ops },
                  { context: { sessionId: `s${writer}` } },
                );
                accepted.set(version, { next: result.version, ops });
                break;
              } catch (err) {
                if (!(err instanceof ToolError) || err.code !== 'CONFLICT') throw err;
                conflicts++;
              }
            }
          }
        }),
      );
      expect(accepted.size).toBe(200);
      expect(conflicts).toBeGreaterThan(0);
      // Replay the accepted patches along the chain of versions, one after another.
      let text = initial;
      let version = start;
      for (let i = 0; i < 200; i++) {
        const step = accepted.get(version)!;
        text = applyPatch(text, step.ops);
        expect(versionOf(Buffer.from(text))).toBe(step.next);
        version = step.next;
      }
      expect(get(env, 'shared.txt')).toBe(text);
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toBe('count: 200');
      expect(new Set(lines.slice(1)).size).toBe(200);
      expect(env.audit.filter((e) => e.type === 'write' && e.tool === 'openspace.file.patch')).toHaveLength(200);
    });

    it('keeps the last 20 versions per file; restore brings back the exact bytes as a new write', async () => {
      const contents = Array.from({ length: 30 }, (_, i) => `version ${i}\r\nünïcødé ✓ ${'x'.repeat(i)}\n`);
      const versions: string[] = [];
      for (const c of contents) versions.push((await env.files.writeText('ring.txt', c)).version);
      const { currentVersion, snapshots } = await env.files.snapshots('ring.txt');
      expect(currentVersion).toBe(versions[29]);
      expect(snapshots).toHaveLength(MAX_SNAPSHOTS);
      expect(snapshots.map((s) => s.version)).toEqual(versions.slice(10).reverse());
      expect(snapshots[0]).toMatchObject({ source: 'openspace.file.write', bytes: Buffer.byteLength(contents[29]!) });
      const snapshotDirs = env.fs.readdirSync(at(env, SNAPSHOT_DIR));
      expect(snapshotDirs).toHaveLength(1);
      expect(
        env.fs
          .readdirSync(env.p.join(at(env, SNAPSHOT_DIR), String(snapshotDirs[0])))
          .map(String)
          .sort(),
      ).toEqual([...versions.slice(10), 'index.json'].sort());

      const restored = await env.files.restore(
        'ring.txt',
        { version: versions[12]! },
        { context: { sessionId: 'r', clientName: 'tester' } },
      );
      expect(restored).toEqual({ version: versions[12], bytes: Buffer.byteLength(contents[12]!) });
      expect(env.fs.readFileSync(at(env, 'ring.txt'))).toEqual(Buffer.from(contents[12]!));
      expect((await env.files.snapshots('ring.txt')).snapshots[0]).toMatchObject({
        version: versions[12],
        source: 'openspace.file.restore',
        session: 'r',
        client: 'tester',
      });
      expect(await codeOf(env.files.restore('ring.txt', { version: versions[0]! }))).toBe('SNAPSHOT_NOT_FOUND');
      const stale = await conflictOf(env.files.restore('ring.txt', { version: versions[20]!, baseVersion: versions[29]! }));
      expect(stale).toEqual({ code: 'CONFLICT', currentVersion: versions[12] });
    });

    it('writes one audit line per write, with path, version, bytes, sha256, session, client and tool', async () => {
      await env.files.writeText('./docs/../log.txt', 'hello', {
        context: { sessionId: 'sess-1', clientName: 'claude-code' },
        tool: 'openspace.file.write',
      });
      const [entry] = env.audit;
      expect(entry).toEqual({
        type: 'write',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        path: 'log.txt',
        version: versionOf(Buffer.from('hello')),
        bytes: 5,
        sha256: sha256(Buffer.from('hello')),
        session: 'sess-1',
        client: 'claude-code',
        tool: 'openspace.file.write',
      });
      await env.files.writeText('../escape.txt', 'x').catch(() => {});
      expect(env.audit).toHaveLength(1);
    });

    it('the path guard and the policy hold for patches and restores as for writes', async () => {
      env.fs.writeFileSync(env.p.join(env.outside, 'target.txt'), 'outside\n');
      env.fs.symlinkSync(env.p.join(env.outside, 'target.txt'), at(env, 'leak.txt'));
      env.fs.symlinkSync(env.outside, at(env, 'out'));
      put(env, '.env', 'SECRET=1\n');
      const v = versionOf(Buffer.from('outside\n'));
      const append: PatchOperation[] = [{ type: 'append', content: 'x' }];
      expect(await codeOf(env.files.patch('leak.txt', { baseVersion: v, operations: append }))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(env.files.patch('out/target.txt', { baseVersion: v, operations: append }))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(env.files.patch('../outside/target.txt', { baseVersion: v, operations: append }))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(env.files.writeText('out/new.txt', 'x'))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(env.files.restore('leak.txt', { version: v }))).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf(env.files.patch('.git/config', { baseVersion: v, operations: append }))).toBe('PROTECTED_PATH');
      expect(await codeOf(env.files.patch('.env', { baseVersion: versionOf(Buffer.from('SECRET=1\n')), operations: append }))).toBe(
        'SENSITIVE_FILE',
      );
      expect(await codeOf(env.files.snapshots('.env'))).toBe('SENSITIVE_FILE');
      expect(env.fs.readFileSync(env.p.join(env.outside, 'target.txt'), 'utf8')).toBe('outside\n');
      expect(env.fs.readdirSync(env.outside).map(String)).toEqual(['target.txt']);
    });

    it('removes temporary files a crash left behind when it next starts', async () => {
      await env.files.writeText('dir/a.txt', 'a');
      put(env, 'dir/.a.txt.0123456789ab.openspace-tmp', 'half a write');
      put(env, 'dir/.keep.openspace-tmp-not-ours', 'not ours');
      await env.open();
      expect(env.fs.readdirSync(at(env, 'dir')).map(String).sort()).toEqual(['.keep.openspace-tmp-not-ours', 'a.txt']);
      expect(get(env, WRITE_DIRS_FILE)).toBe('');
    });
  });
}

describe('outside edits seen by the watcher (disk)', () => {
  let env: Env;
  beforeEach(async () => {
    env = await diskEnv();
  });
  afterEach(async () => env.cleanup());

  it(
    'keeps an outside edit of a file the store has seen as a snapshot, and tells listeners, ignoring its own writes',
    { timeout: 20_000 },
    async () => {
      const files = await WorkspaceFiles.create({ fs: nodeFs, root: env.root, kind: 'disk', watch: true });
      try {
        const heard: string[] = [];
        files.onFileWritten((path, text) => heard.push(`${path}: ${text}`));
        const v1 = (await files.writeText('w/seen.txt', 'by the agent\n')).version;
        await new Promise((r) => setTimeout(r, 300)); // the watcher is ready and has seen the store's own write
        nodeFs.writeFileSync(at(env, 'w/seen.txt'), 'by a person\n');
        const person = versionOf(Buffer.from('by a person\n'));
        await expect
          .poll(async () => (await files.snapshots('w/seen.txt')).snapshots.map((s) => s.version), { timeout: 5000 })
          .toEqual([person, v1]);
        expect((await files.snapshots('w/seen.txt')).snapshots[0]!.source).toBe('outside');
        expect(heard).toEqual(['w/seen.txt: by the agent\n', 'w/seen.txt: by a person\n']);
      } finally {
        await files.dispose();
      }
    },
  );
});

describe('open what was validated (disk)', () => {
  let env: Env;
  beforeEach(async () => {
    env = await diskEnv();
  });
  afterEach(async () => env.cleanup());

  /** Run `swap` right after the path guard accepted a path: the check-then-use gap, made certain. */
  function swapAfterCheck(swap: () => void): void {
    const guard = env.files.guard;
    const resolve = guard.resolve.bind(guard);
    let armed = true;
    guard.resolve = async (input: string) => {
      const resolved = await resolve(input);
      if (armed) {
        armed = false;
        swap();
      }
      return resolved;
    };
  }

  const swapDirForLink = (rel: string) => () => {
    nodeFs.renameSync(at(env, rel), at(env, `${rel}.moved`));
    nodeFs.symlinkSync(env.outside, at(env, rel));
  };

  it('a directory swapped for a link to outside after the check: the write creates nothing outside', async () => {
    put(env, 'd/f.txt', 'inside\n');
    swapAfterCheck(swapDirForLink('d'));
    expect(await codeOf(env.files.writeText('d/f.txt', 'escaped\n'))).toBe('PATH_OUTSIDE_WORKSPACE');
    expect(nodeFs.readdirSync(env.outside)).toEqual([]);
  });

  it('a directory swapped for a link after the check: the read does not return what is outside', async () => {
    put(env, 'd/f.txt', 'inside\n');
    nodeFs.writeFileSync(nodePath.join(env.outside, 'f.txt'), 'SECRET\n');
    swapAfterCheck(swapDirForLink('d'));
    expect(await codeOf(env.files.readText('d/f.txt'))).toBe('PATH_OUTSIDE_WORKSPACE');
  });

  it('the file itself swapped for a link to outside after the check: neither read, patched nor written through', async () => {
    const target = nodePath.join(env.outside, 'f.txt');
    nodeFs.writeFileSync(target, 'SECRET\n');
    const swapFile = () => {
      nodeFs.rmSync(at(env, 'f.txt'), { force: true });
      nodeFs.symlinkSync(target, at(env, 'f.txt'));
    };
    for (const attempt of [
      () => env.files.readText('f.txt'),
      () => env.files.writeText('f.txt', 'escaped\n'),
      () =>
        env.files.patch('f.txt', { baseVersion: versionOf(Buffer.from('inside\n')), operations: [{ type: 'append', content: 'escaped' }] }),
    ]) {
      nodeFs.rmSync(at(env, 'f.txt'), { force: true });
      put(env, 'f.txt', 'inside\n');
      swapAfterCheck(swapFile);
      expect(await codeOf(attempt())).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(nodeFs.readFileSync(target, 'utf8')).toBe('SECRET\n');
    }
  });

  it('race: links swapped in and out while thousands of reads and writes run, zero escapes', { timeout: 60_000 }, async () => {
    const secret = 'SECRET OUTSIDE\n';
    nodeFs.writeFileSync(nodePath.join(env.outside, 'f.txt'), secret);
    put(env, 'd/f.txt', 'inside\n');
    put(env, 'g.txt', 'inside\n');
    const stopFlag = new SharedArrayBuffer(4);
    // Another thread swaps `d` for a link to the outside directory and `g.txt` for a link to the
    // outside file, and back, as fast as it can.
    const worker = new Worker(
      `
      const fs = require('node:fs');
      const { workerData: w } = require('node:worker_threads');
      const stop = new Int32Array(w.stop);
      let swaps = 0;
      while (Atomics.load(stop, 0) === 0) {
        try { fs.renameSync(w.dir, w.dir + '.real'); fs.symlinkSync(w.outside, w.dir); } catch {}
        try { fs.renameSync(w.file, w.file + '.real'); fs.symlinkSync(w.outsideFile, w.file); } catch {}
        try { fs.unlinkSync(w.dir); fs.renameSync(w.dir + '.real', w.dir); } catch {}
        try { fs.unlinkSync(w.file); fs.renameSync(w.file + '.real', w.file); } catch {}
        swaps++;
      }
      require('node:worker_threads').parentPort.postMessage(swaps);
      `,
      {
        eval: true,
        workerData: {
          stop: stopFlag,
          dir: at(env, 'd'),
          file: at(env, 'g.txt'),
          outside: env.outside,
          outsideFile: nodePath.join(env.outside, 'f.txt'),
        },
      },
    );
    const swaps = new Promise<number>((resolve) => worker.once('message', resolve));
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    let escapes = 0;
    const ITERATIONS = 1000;
    // A refusal or an error from a file system changing underneath is fine; only an escape is not.
    const outcome = (err: unknown) => {
      if (err instanceof ToolError) return err.code;
      const code = (err as { code?: unknown }).code;
      if (typeof code !== 'string') throw err;
      return code;
    };
    const stopSwapping = async () => {
      Atomics.store(new Int32Array(stopFlag), 0, 1);
      const swapped = await swaps;
      await worker.terminate();
      return swapped;
    };
    let swapped: number;
    try {
      for (let i = 0; i < ITERATIONS; i++) {
        for (const path of ['d/f.txt', 'g.txt']) {
          try {
            const { text } = await env.files.readText(path);
            if (text === secret) escapes++;
            count('read ok');
          } catch (err) {
            count(`read ${outcome(err)}`);
          }
          try {
            await env.files.writeText(path, `write ${i}\n`);
            count('write ok');
          } catch (err) {
            count(`write ${outcome(err)}`);
          }
        }
      }
    } finally {
      swapped = await stopSwapping();
    }
    // Nothing outside changed, nothing was created there, and no read returned what is there.
    expect(escapes).toBe(0);
    expect(nodeFs.readdirSync(env.outside)).toEqual(['f.txt']);
    expect(nodeFs.readFileSync(nodePath.join(env.outside, 'f.txt'), 'utf8')).toBe(secret);
    // Not vacuous: both the successes and the refusals happened.
    expect(outcomes.get('read ok')).toBeGreaterThan(0);
    expect(outcomes.get('write ok')).toBeGreaterThan(0);
    expect([...outcomes.keys()].some((k) => k.endsWith('PATH_OUTSIDE_WORKSPACE'))).toBe(true);
    expect(swapped).toBeGreaterThan(100);
    await env.files.store.idle();
    const leftovers = nodeFs
      .readdirSync(env.root, { recursive: true })
      .map(String)
      .filter((f) => TEMP_FILE.test(nodePath.basename(f)));
    expect(leftovers).toEqual([]);
    console.log(
      `race: ${ITERATIONS * 2} reads and ${ITERATIONS * 2} writes during ${swapped} link swaps:`,
      JSON.stringify(Object.fromEntries(outcomes)),
    );
  });
});
