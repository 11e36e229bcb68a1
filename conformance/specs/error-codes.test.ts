/**
 * Every documented error code (src/contract/result.ts) is produced by the input that should
 * produce it. Most have their case in the spec of their tool family; this file holds the ones that
 * had none, and an audit that keeps it so: a new code without a spec that expects it fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/index.js';
import { MAX_READ_BYTES } from '../../src/families/index.js';
import { eventually, useTarget } from '../setup.js';

const ctx = useTarget();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SPECS = fileURLToPath(new URL('.', import.meta.url));

/**
 * Codes no call to a healthy IDE can produce, and the test that produces them where it can be
 * arranged (a hub with no IDE, an IDE that never answers).
 */
const OUTSIDE_THE_SUITE: Record<string, { reason: string; provenBy?: string }> = {
  BRIDGE_UNAVAILABLE: { reason: 'needs a hub with no IDE connected', provenBy: 'src/hub/hub.test.ts' },
  TIMEOUT: { reason: 'needs an IDE that never answers', provenBy: 'src/hub/hub.test.ts' },
  NO_WORKSPACE: {
    reason: 'needs an IDE with no folder open: every target the suite starts has one',
    provenBy: 'theia-app/e2e/no-folder.spec.ts',
  },
  NO_DEBUGGER: {
    reason: 'needs a machine without debugpy or LLDB, or with a sandbox that cannot start: CI installs them all',
    provenBy: 'src/families/debug/adapters.test.ts',
  },
  INTERNAL: { reason: 'a bug in OpenSpace: no input may produce it, which invalid-input.test.ts checks for every tool' },
};

describe('documented error codes', () => {
  it('every code in ERROR_CODES is expected by some conformance spec, or says why it cannot be', () => {
    const specs = readdirSync(SPECS)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(`${SPECS}/${f}`, 'utf8'))
      .join('\n');
    const missing = Object.keys(ERROR_CODES).filter((code) => !specs.includes(`'${code}'`));
    const uncovered = missing.filter((code) => !OUTSIDE_THE_SUITE[code]);
    expect(uncovered, `error codes no conformance spec produces: add a case that expects each (${uncovered.join(', ')})`).toEqual([]);
    for (const [code, { provenBy }] of Object.entries(OUTSIDE_THE_SUITE)) {
      expect(Object.keys(ERROR_CODES), `${code} is listed as outside the suite but is no longer documented`).toContain(code);
      if (provenBy) expect(readFileSync(`${ROOT}/${provenBy}`, 'utf8'), `${provenBy} should produce ${code}`).toContain(`'${code}'`);
    }
  });
});

describe('error codes without a case elsewhere', () => {
  it('BINARY_FILE: reading or opening a file that holds binary data', async () => {
    await ctx.agent.ok('openspace.file.write', { path: 'bin/blob.dat', content: 'PK\u0003\u0004\u0000\u0000\u0000binary' });
    const read = await ctx.agent.fails('openspace.file.read', { path: 'bin/blob.dat' }, 'BINARY_FILE');
    expect(read.error).toMatch(/bin\/blob\.dat/);
    await ctx.agent.fails('openspace.editor.open', { path: 'bin/blob.dat' }, 'BINARY_FILE');
    // Text around it still reads.
    await ctx.agent.ok('openspace.file.read', { path: 'notes.txt' });
  });

  it('FILE_TOO_LARGE: reading more than 1 MiB at once; a line range of the same file reads', async () => {
    const line = `${'x'.repeat(99)}\n`;
    const content = line.repeat(Math.ceil((MAX_READ_BYTES * 1.2) / line.length));
    await ctx.agent.ok('openspace.file.write', { path: 'large.txt', content });
    const refused = await ctx.agent.fails('openspace.file.read', { path: 'large.txt' }, 'FILE_TOO_LARGE');
    expect(refused.error).toMatch(/startLine/);
    const range = await ctx.agent.ok('openspace.file.read', { path: 'large.txt', startLine: 1, endLine: 3 });
    expect(range.content.split('\n').filter(Boolean)).toEqual(['x'.repeat(99), 'x'.repeat(99), 'x'.repeat(99)]);
  });

  it('CONFLICT: a patch based on a version the file has moved on from, naming the current version', async () => {
    const first = await ctx.agent.ok('openspace.file.write', { path: 'conflict.txt', content: 'one\n' });
    const second = await ctx.agent.ok('openspace.file.write', { path: 'conflict.txt', content: 'two\n' });
    const refused = await ctx.agent.fails(
      'openspace.file.patch',
      { path: 'conflict.txt', baseVersion: first.version, operations: [{ type: 'append', content: 'three\n' }] },
      'CONFLICT',
    );
    expect(refused.currentVersion).toBe(second.version);
    expect((await ctx.agent.ok('openspace.file.read', { path: 'conflict.txt' })).content).toBe('two\n');
  });

  it('SNAPSHOT_NOT_FOUND: restoring a version that was never kept', async () => {
    await ctx.agent.fails('openspace.file.restore', { path: 'notes.txt', version: '0123456789abcdef' }, 'SNAPSHOT_NOT_FOUND');
  });

  it("DIRTY_BUFFER: closing an editor that holds a person's unsaved changes, unless force", async (t) => {
    await ctx.agent.ok('openspace.editor.open', { path: 'notes.txt' });
    // Theia's browser app saves 1 s after the last keystroke, so a buffer stays dirty only while a
    // person keeps typing: patch.test.ts does that for DIRTY_BUFFER in Theia.
    if (!ctx.target.sim) t.skip("needs a person's edit that stays unsaved: the simulated IDE offers one (Theia: patch.test.ts)");
    ctx.target.sim!.editors.personEdits('notes.txt', 'a person typed this\n');
    await eventually(async () => {
      const { panes } = await ctx.agent.ok('openspace.pane.list');
      const tab = panes
        .flatMap((p: { tabs: { contentId: string; isDirty: boolean }[] }) => p.tabs)
        .find((tb: { contentId: string }) => tb.contentId === 'notes.txt');
      expect(tab?.isDirty).toBe(true);
    });
    const refused = await ctx.agent.fails('openspace.editor.close', { path: 'notes.txt' }, 'DIRTY_BUFFER');
    expect(refused.error).toMatch(/force/);
    await ctx.agent.ok('openspace.editor.close', { path: 'notes.txt', force: true });
  });

  it('CONFIRMATION_REQUIRED: a command the sandbox cannot contain, from an agent that cannot ask its person, with no one at the IDE', async (t) => {
    // Theia asks its own person (session.test.ts and the Theia E2E cover Allow and Deny).
    if (!ctx.target.sim) t.skip('the target has a person to ask');
    await ctx.agent.ok('openspace.terminal.create', { title: 'danger' });
    const before = await ctx.agent.ok('openspace.terminal.read_output', { terminalId: 'danger' });
    // Deleting the workspace: the person's files, which no sandbox can give back.
    const refused = await ctx.agent.fails('openspace.terminal.send', { terminalId: 'danger', text: 'rm -rf .' }, 'CONFIRMATION_REQUIRED');
    expect(refused.error).toMatch(/rm -rf \. — .*the workspace/);
    const after = await ctx.agent.ok('openspace.terminal.read_output', { terminalId: 'danger', since: before.cursor });
    expect([...after.output, after.partial].join('\n')).not.toContain('rm -rf');
  });
});
