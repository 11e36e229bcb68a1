/**
 * The artifact store and the patch engine through MCP (issue 5; TECHSPEC §6.8–6.9, T7): versions,
 * optimistic concurrency, atomic audited writes, snapshots and restore, open editors and a person's
 * unsaved work. Runs on every target; the cases that need a person's hand (an edit in the editor, a
 * change on disk made outside OpenSpace) use the simulated IDE's probe or Theia's page and terminal.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { applyPatch } from '../../src/store/patch-engine.js';
import type { PatchOperation } from '../../src/families/index.js';
import { connectAgent, type Agent } from '../client.js';
import { eventually, useTarget } from '../setup.js';
import { focusVisibleEditor, personTypes } from '../person.js';

const ctx = useTarget();

const VERSION = /^[0-9a-f]{16}$/;

async function write(path: string, content: string): Promise<string> {
  return (await ctx.agent.ok('openspace.file.write', { path, content })).version;
}

async function read(path: string): Promise<{ content: string; version: string }> {
  const { content, version } = await ctx.agent.ok('openspace.file.read', { path });
  return { content, version };
}

/**
 * A change made outside OpenSpace's store: straight to the simulated IDE's disk, or in Theia by a
 * person who replaces the editor's text and saves (Theia writes the file itself).
 */
async function editOutside(t: TestContext, path: string, content: string): Promise<void> {
  const sim = ctx.target.sim;
  if (sim) {
    sim.workspace.fs.writeFileSync(`${sim.workspace.root}/${path}`, content);
    return;
  }
  const page = ctx.target.page;
  if (!page) t.skip('needs a way to change a file outside OpenSpace: the simulated IDE or Theia');
  await ctx.agent.ok('openspace.editor.open', { path });
  await focusVisibleEditor(ctx);
  await page!.keyboard.press('ControlOrMeta+a');
  await page!.keyboard.type(content);
  await page!.keyboard.press('ControlOrMeta+s');
  await eventually(async () => expect((await read(path)).content).toBe(content), 10_000);
}

describe('versions and patches', () => {
  it('file.read and file.write return the version; a patch on it applies and returns the next one', async () => {
    const written = await ctx.agent.ok('openspace.file.write', { path: 'patch/a.txt', content: 'alpha\nbeta\ngamma\n' });
    expect(written.version).toMatch(VERSION);
    const { version } = await read('patch/a.txt');
    expect(version).toBe(written.version);
    const ranged = await ctx.agent.ok('openspace.file.read', { path: 'patch/a.txt', startLine: 2, endLine: 2 });
    expect(ranged.version).toBe(version); // the whole file's version, whatever range was read

    const patched = await ctx.agent.ok('openspace.file.patch', {
      path: 'patch/a.txt',
      baseVersion: version,
      operations: [
        { type: 'insert', line: 1, content: 'start' },
        { type: 'replace', startLine: 2, endLine: 2, content: 'BETA' },
        { type: 'delete', startLine: 3, endLine: 3 },
        { type: 'append', content: 'end\n' },
        { type: 'replace_text', oldText: 'alpha', newText: 'ALPHA' },
      ],
    });
    expect(patched).toEqual({ success: true, path: 'patch/a.txt', version: expect.stringMatching(VERSION), bytes: 21, totalLines: 4 });
    expect(await read('patch/a.txt')).toEqual({ content: 'start\nALPHA\nBETA\nend\n', version: patched.version });
  });

  it('T7: a stale baseVersion answers CONFLICT with currentVersion, and changes nothing', async () => {
    const v1 = await write('patch/t7.txt', 'one\n');
    const v2 = await write('patch/t7.txt', 'two\n');
    const refused = await ctx.agent.fails(
      'openspace.file.patch',
      { path: 'patch/t7.txt', baseVersion: v1, operations: [{ type: 'append', content: 'three' }] },
      'CONFLICT',
    );
    expect(refused.currentVersion).toBe(v2);
    expect(refused.error).toMatch(/openspace\.file\.read/);
    expect(await read('patch/t7.txt')).toEqual({ content: 'two\n', version: v2 });
  });

  it('validates every operation against the base version: all apply or none (RANGE_INVALID)', async () => {
    const version = await write('patch/range.txt', 'a\nb\nc\n');
    const attempts: PatchOperation[][] = [
      [{ type: 'delete', startLine: 3, endLine: 4 }],
      [{ type: 'insert', line: 5, content: 'x' }],
      [
        { type: 'append', content: 'fine' },
        { type: 'replace', startLine: 2, endLine: 1, content: 'x' },
      ],
      [
        { type: 'delete', startLine: 1, endLine: 2 },
        { type: 'replace', startLine: 2, endLine: 3, content: 'x' },
      ],
      [{ type: 'replace_text', oldText: 'zzz', newText: 'x' }],
      [{ type: 'replace_text', oldText: '\n', newText: 'x' }],
    ];
    for (const operations of attempts) {
      const refused = await ctx.agent.fails(
        'openspace.file.patch',
        { path: 'patch/range.txt', baseVersion: version, operations },
        'RANGE_INVALID',
      );
      expect(refused.error).toMatch(/operations\[\d\]/);
    }
    expect(await read('patch/range.txt')).toEqual({ content: 'a\nb\nc\n', version });
    await ctx.agent.fails(
      'openspace.file.patch',
      { path: 'patch/range.txt', baseVersion: 'v1', operations: [{ type: 'append', content: 'x' }] },
      'INVALID_ARGUMENT',
    );
    await ctx.agent.fails('openspace.file.patch', { path: 'patch/range.txt', baseVersion: version, operations: [] }, 'INVALID_ARGUMENT');
  });

  it('an edit made outside OpenSpace changes the version, and a patch on the old one conflicts', async (t) => {
    const before = await write('patch/outside.txt', 'mine\n');
    await ctx.agent.ok('openspace.editor.open', { path: 'patch/outside.txt' });
    await editOutside(t, 'patch/outside.txt', 'a person changed this\n');
    // An IDE on a real disk watches it: the open editor shows the outside edit (an in-memory volume has no watcher).
    if (ctx.target.sim?.workspace.kind !== 'memory') {
      await eventually(
        async () =>
          expect((await ctx.agent.ok('openspace.editor.read_file', { path: 'patch/outside.txt' })).content).toBe('a person changed this\n'),
        5000,
      );
    }
    await ctx.agent.ok('openspace.editor.close', { path: 'patch/outside.txt' });
    const after = await read('patch/outside.txt');
    expect(after.version).not.toBe(before);
    const refused = await ctx.agent.fails(
      'openspace.file.patch',
      { path: 'patch/outside.txt', baseVersion: before, operations: [{ type: 'append', content: 'x' }] },
      'CONFLICT',
    );
    expect(refused.currentVersion).toBe(after.version);
    expect((await read('patch/outside.txt')).content).toBe('a person changed this\n');
  });

  // Ten sessions contend for every patch (each retry is a read and a patch), so the work grows with
  // sessions × patches: five each keep it a few seconds per IDE. The store's own test
  // (src/store/artifact-store.test.ts) runs ten writers with twenty each without the HTTP hops.
  const SESSIONS = 10;
  const PATCHES_EACH = 5;
  it(
    'ten sessions, five patches each, retrying on CONFLICT: every patch applied exactly once, the result is the serial one',
    { timeout: 120_000 },
    async () => {
      const initial = 'count: 0\n';
      const start = await write('patch/shared.txt', initial);
      const agents: Agent[] = await Promise.all(
        Array.from({ length: SESSIONS }, (_, i) => connectAgent({ mcpUrl: ctx.target.mcpUrl, token: ctx.target.token }, `writer-${i}`)),
      );
      const accepted = new Map<string, { next: string; operations: PatchOperation[] }>();
      let conflicts = 0;
      try {
        await Promise.all(
          agents.map(async (agent, writer) => {
            for (let j = 0; j < PATCHES_EACH; j++) {
              for (;;) {
                const { content, version } = await agent.ok('openspace.file.read', { path: 'patch/shared.txt' });
                const count = Number(/^count: (\d+)/.exec(content)![1]);
                const operations: PatchOperation[] = [
                  { type: 'replace', startLine: 1, endLine: 1, content: `count: ${count + 1}` },
                  { type: 'append', content: `session ${writer} patch ${j}` },
                ];
                const result = await agent.call('openspace.file.patch', { path: 'patch/shared.txt', baseVersion: version, operations });
                if (result.success) {
                  accepted.set(version, { next: result.version, operations });
                  break;
                }
                expect(result.code).toBe('CONFLICT');
                expect(result.currentVersion).toMatch(VERSION);
                conflicts++;
              }
            }
          }),
        );
      } finally {
        await Promise.all(agents.map((a) => a.endSession()));
      }
      expect(accepted.size).toBe(SESSIONS * PATCHES_EACH);
      expect(conflicts).toBeGreaterThan(0);
      let text = initial;
      let version = start;
      for (let i = 0; i < SESSIONS * PATCHES_EACH; i++) {
        const step = accepted.get(version);
        expect(step, `patch ${i + 1} in the chain of versions`).toBeDefined();
        text = applyPatch(text, step!.operations);
        version = step!.next;
      }
      const final = await read('patch/shared.txt');
      expect(final).toEqual({ content: text, version });
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toBe(`count: ${SESSIONS * PATCHES_EACH}`);
      expect(new Set(lines.slice(1)).size).toBe(SESSIONS * PATCHES_EACH);
    },
  );
});

describe('snapshots and restore', () => {
  it('keeps the last 20 versions of a file; restore puts back the exact bytes', async () => {
    const contents = Array.from({ length: 25 }, (_, i) => `take ${i}\r\nünïcødé ✓\t${'·'.repeat(i)}\n`);
    const versions: string[] = [];
    for (const content of contents) versions.push(await write('patch/ring.txt', content));
    const listed = await ctx.agent.ok('openspace.file.snapshots', { path: 'patch/ring.txt' });
    expect(listed.currentVersion).toBe(versions[24]);
    expect(listed.snapshots).toHaveLength(20);
    expect(listed.snapshots.map((s: { version: string }) => s.version)).toEqual(versions.slice(5).reverse());
    expect(listed.snapshots[0]).toMatchObject({
      source: 'openspace.file.write',
      bytes: Buffer.byteLength(contents[24]!),
      client: 'conformance-agent',
    });

    const restored = await ctx.agent.ok('openspace.file.restore', { path: 'patch/ring.txt', version: versions[7] });
    expect(restored).toEqual({ success: true, path: 'patch/ring.txt', version: versions[7], bytes: Buffer.byteLength(contents[7]!) });
    expect(await read('patch/ring.txt')).toEqual({ content: contents[7], version: versions[7] });
    await ctx.agent.fails('openspace.file.restore', { path: 'patch/ring.txt', version: versions[2] }, 'SNAPSHOT_NOT_FOUND');
    const stale = await ctx.agent.fails(
      'openspace.file.restore',
      { path: 'patch/ring.txt', version: versions[9], baseVersion: versions[24] },
      'CONFLICT',
    );
    expect(stale.currentVersion).toBe(versions[7]);
  });

  it('keeps what was on disk before the store first wrote over it, and edits made outside', async () => {
    const original = await read('notes.txt');
    await write('notes.txt', 'replaced\n');
    const { snapshots } = await ctx.agent.ok('openspace.file.snapshots', { path: 'notes.txt' });
    expect(snapshots.map((s: { source: string }) => s.source)).toEqual(['openspace.file.write', 'outside']);
    expect(snapshots[1].version).toBe(original.version);
    await ctx.agent.ok('openspace.file.restore', { path: 'notes.txt', version: original.version });
    expect(await read('notes.txt')).toEqual(original);
  });
});

describe('the path guard and the file policy hold for patches', () => {
  it('refuses paths outside, protected paths and sensitive files', async () => {
    const op = { baseVersion: '0123456789abcdef', operations: [{ type: 'append', content: 'x' }] };
    await ctx.agent.fails('openspace.file.patch', { path: '../outside.txt', ...op }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.patch', { path: '/etc/passwd', ...op }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.patch', { path: '.git/config', ...op }, 'PROTECTED_PATH');
    await ctx.agent.fails('openspace.file.patch', { path: '.env', ...op }, 'SENSITIVE_FILE');
    await ctx.agent.fails('openspace.file.snapshots', { path: '.env' }, 'SENSITIVE_FILE');
    await ctx.agent.fails('openspace.file.restore', { path: '../x.txt', version: '0123456789abcdef' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.file.restore', { path: '.openspace/settings.json', version: '0123456789abcdef' }, 'PROTECTED_PATH');
  });
});

describe("open editors and a person's unsaved work", () => {
  it('an open editor shows what a patch and a restore wrote', async () => {
    const v1 = await write('patch/shown.txt', 'one\n');
    await ctx.agent.ok('openspace.editor.open', { path: 'patch/shown.txt' });
    await ctx.agent.ok('openspace.file.patch', {
      path: 'patch/shown.txt',
      baseVersion: v1,
      operations: [{ type: 'append', content: 'two' }],
    });
    await eventually(async () => {
      expect(await ctx.agent.ok('openspace.editor.read_file', { path: 'patch/shown.txt' })).toMatchObject({
        content: 'one\ntwo\n',
        isDirty: false,
      });
    });
    await ctx.agent.ok('openspace.file.restore', { path: 'patch/shown.txt', version: v1 });
    await eventually(async () => {
      expect(await ctx.agent.ok('openspace.editor.read_file', { path: 'patch/shown.txt' })).toMatchObject({
        content: 'one\n',
        isDirty: false,
      });
    });
    await ctx.agent.ok('openspace.editor.close', { path: 'patch/shown.txt' });
  });

  it('refuses to write, patch or restore under unsaved changes (DIRTY_BUFFER) unless force:true, which the editor then shows', async (t) => {
    const v1 = await write('patch/dirty.txt', 'saved\n');
    const v2 = await write('patch/dirty.txt', 'saved twice\n');
    await ctx.agent.ok('openspace.editor.open', { path: 'patch/dirty.txt' });
    const stopTyping = await personTypes(ctx, t, 'patch/dirty.txt', 'typed by a person ');
    try {
      const append = [{ type: 'append', content: 'agent' }];
      const refusals = [
        await ctx.agent.fails('openspace.file.write', { path: 'patch/dirty.txt', content: 'agent\n' }, 'DIRTY_BUFFER'),
        await ctx.agent.fails('openspace.file.patch', { path: 'patch/dirty.txt', baseVersion: v2, operations: append }, 'DIRTY_BUFFER'),
        await ctx.agent.fails('openspace.file.restore', { path: 'patch/dirty.txt', version: v1 }, 'DIRTY_BUFFER'),
      ];
      for (const refused of refusals) expect(refused.error).toMatch(/force/);
      expect(await read('patch/dirty.txt')).toEqual({ content: 'saved twice\n', version: v2 });
      const buffer = (await ctx.agent.ok('openspace.editor.read_file', { path: 'patch/dirty.txt' })).content;
      expect(buffer).toMatch(/typed by a person/);
    } finally {
      await stopTyping();
    }

    const forced = await ctx.agent.ok('openspace.file.patch', {
      path: 'patch/dirty.txt',
      baseVersion: v2,
      operations: [{ type: 'append', content: 'agent' }],
      force: true,
    });
    expect((await read('patch/dirty.txt')).version).toBe(forced.version);
    await eventually(async () => {
      expect(await ctx.agent.ok('openspace.editor.read_file', { path: 'patch/dirty.txt' })).toMatchObject({
        content: 'saved twice\nagent\n',
        isDirty: false,
      });
    });
    await ctx.agent.ok('openspace.editor.close', { path: 'patch/dirty.txt' });
  });
});

describe('audit', () => {
  it('logs one write line per write: path, version, bytes, sha256, session, client, tool', async (t) => {
    const sim = ctx.target.sim;
    if (!sim) t.skip("reads the audit log file, which agents may not read: the simulated IDE's probe only");
    const version = await write('patch/audited.txt', 'audited\n');
    await sim!.audit.flush();
    const lines = String(sim!.workspace.fs.readFileSync(`${sim!.workspace.root}/.openspace/audit.ndjson`, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const entry = lines.find((l) => l.type === 'write' && l.path === 'patch/audited.txt');
    expect(entry).toEqual({
      type: 'write',
      time: expect.any(String),
      path: 'patch/audited.txt',
      version,
      bytes: 8,
      sha256: expect.stringMatching(new RegExp(`^${version}[0-9a-f]{48}$`)),
      session: expect.any(String),
      client: 'conformance-agent',
      tool: 'openspace.file.write',
    });
    await ctx.agent.fails('openspace.file.read', { path: '.openspace/audit.ndjson' }, 'SENSITIVE_FILE');
  });
});
