/**
 * The commands that run beside the files in Theia's backend, on a real workspace on disk (the
 * store, the path guard, the file policy) with a scripted window at the edge: what reaches the
 * window, and when. The real window is the Theia conformance run's and the E2E's.
 */
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitRepository, WorkspaceFiles } from '../../../../src/node.js';
import type { CallContext, CodePort, TestPort } from '../../../../src/browser.js';
import type { BackendCall, BridgeFrontend, WindowView } from '../common/protocol.js';
import { BesideFiles } from './beside-files.js';
import { CallFilePolicy } from './call-file-policy.js';

const AGENT: CallContext = { sessionId: 's1', clientName: 'test-agent' };

/** A window that answers as told and notes every question the backend asks it. */
function scriptedWindow(answers: { dirty?: Set<string>; consent?: boolean } = {}) {
  const asked: string[] = [];
  const calls: BackendCall[] = [];
  const window: BridgeFrontend = {
    execute: async () => ({ success: false, code: 'INTERNAL', error: 'not here' }),
    notifyCancelled: async () => undefined,
    sessionsChanged: async () => undefined,
    editor: async (path) => (asked.push(`editor ${path}`), { isDirty: answers.dirty?.has(path) ?? false }),
    unsavedBuffers: async () => (asked.push('unsavedBuffers'), {}),
    discard: async (path) => void asked.push(`discard ${path}`),
    fileWritten: async (path, text) => void asked.push(`fileWritten ${path} ${JSON.stringify(text)}`),
    agentConsent: async () => (asked.push('agentConsent'), answers.consent ?? true),
    confirmAction: async (question) => (asked.push(`confirmAction ${question.title}`), false),
    notifyAgentCall: async (call) => void calls.push(call),
  };
  return { window, asked, calls };
}

let root: string;
let stores: Promise<WorkspaceFiles>[];

beforeEach(() => {
  // Not under /tmp: nothing here runs in a sandbox, but keep test workspaces where the suite keeps them.
  root = mkdtempSync('/var/tmp/openspace-beside-files-');
  writeFileSync(join(root, 'open.txt'), 'on disk\n');
  stores = [];
});

afterEach(async () => {
  // A write's snapshot is kept after its answer: wait for it, or the removal below races it (ENOTEMPTY).
  for (const store of stores) {
    const files = await store;
    await files.store.idle();
    files.dispose();
  }
  rmSync(root, { recursive: true, force: true });
});

function besideFiles(window: BridgeFrontend, view: Partial<WindowView> = {}) {
  const policies = new CallFilePolicy();
  const files = WorkspaceFiles.create({ fs, root, kind: 'disk', policy: policies.current });
  stores.push(files);
  const beside = new BesideFiles(window, {
    files: () => files,
    code: async () => ({}) as CodePort,
    git: () => new GitRepository(root, policies.current),
    tests: () => ({}) as TestPort,
    policies,
  });
  beside.publish({
    root,
    editors: [],
    views: [],
    policy: { sensitivePatterns: [], protectedPatterns: [], problems: [] },
    consented: true,
    confirms: true,
    sandbox: { problem: 'no sandbox in these tests' },
    ...view,
  });
  return beside;
}

describe('commands beside the files', () => {
  it('a file the window does not show is read and written without asking it anything', async () => {
    const { window, asked, calls } = scriptedWindow();
    const beside = besideFiles(window, { editors: [{ path: 'open.txt', isDirty: false }] });
    expect(await beside.run('openspace.file.write', { path: 'new.txt', content: 'agent\n' }, AGENT)).toMatchObject({ success: true });
    expect(await beside.run('openspace.file.read', { path: 'new.txt' }, AGENT)).toMatchObject({ success: true, content: 'agent\n' });
    expect(asked).toEqual([]);
    // The window still hears of each call (its status bar), without the file's text.
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.map((c) => [c.tool, c.result])).toEqual([
      ['openspace.file.write', { success: true }],
      ['openspace.file.read', { success: true }],
    ]);
  });

  it("a write to a file open with unsaved changes is refused (DIRTY_BUFFER) and the disk keeps the person's file", async () => {
    const { window, asked } = scriptedWindow({ dirty: new Set(['open.txt']) });
    const beside = besideFiles(window, { editors: [{ path: 'open.txt', isDirty: false }] });
    // The view said clean; the window's answer at the moment of writing is what counts.
    const refused = await beside.run('openspace.file.write', { path: 'open.txt', content: 'agent\n' }, AGENT);
    expect(refused).toMatchObject({ success: false, code: 'DIRTY_BUFFER' });
    expect(readFileSync(join(root, 'open.txt'), 'utf8')).toBe('on disk\n');
    expect(asked).toEqual(['editor open.txt']);
  });

  it('a forced write to a shown file discards the unsaved changes and is shown before it answers', async () => {
    const { window, asked } = scriptedWindow({ dirty: new Set(['open.txt']) });
    const beside = besideFiles(window, { editors: [{ path: 'open.txt', isDirty: true }] });
    const written = await beside.run('openspace.file.write', { path: 'open.txt', content: 'agent\n', force: true }, AGENT);
    expect(written).toMatchObject({ success: true });
    expect(readFileSync(join(root, 'open.txt'), 'utf8')).toBe('agent\n');
    // A file call needs no unsaved text: the window is not asked for it.
    expect(asked).toEqual(['editor open.txt', 'fileWritten open.txt "agent\\n"', 'discard open.txt']);
  });

  it('invalid file patterns fail every file call with the reason, and nothing is written', async () => {
    const { window, calls } = scriptedWindow();
    const problems = ['openspace.security.sensitiveFilePatterns in the workspace settings: "/etc/passwd" is an absolute path'];
    const beside = besideFiles(window, { policy: { sensitivePatterns: [], protectedPatterns: [], problems } });
    const failed = await beside.run('openspace.file.write', { path: 'new.txt', content: 'x' }, AGENT);
    expect(failed).toMatchObject({ success: false, code: 'INTERNAL' });
    expect(failed.success === false && failed.error).toContain('absolute path');
    expect(fs.existsSync(join(root, 'new.txt'))).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.at(-1)).toMatchObject({ tool: 'openspace.file.write', result: { success: false, code: 'INTERNAL' }, logFailure: true });
  });

  it("the person's sensitive patterns hold beside the files too", async () => {
    writeFileSync(join(root, 'a.secret'), 'hunter2\n');
    const beside = besideFiles(scriptedWindow().window, {
      policy: { sensitivePatterns: ['*.secret'], protectedPatterns: [], problems: [] },
    });
    expect(await beside.run('openspace.file.read', { path: 'a.secret' }, AGENT)).toMatchObject({ success: false, code: 'SENSITIVE_FILE' });
  });

  it('without consent the window asks the person; a no refuses the call and writes nothing', async () => {
    const { window, asked } = scriptedWindow({ consent: false });
    const beside = besideFiles(window, { consented: false });
    expect(await beside.run('openspace.file.write', { path: 'new.txt', content: 'x' }, AGENT)).toMatchObject({
      success: false,
      code: 'CONSENT_REQUIRED',
    });
    expect(asked).toEqual(['agentConsent']);
    expect(fs.existsSync(join(root, 'new.txt'))).toBe(false);
  });

  it('the person runs the same command from the palette: no consent asked, no agent call told', async () => {
    const { window, asked, calls } = scriptedWindow({ consent: false });
    const beside = besideFiles(window, { consented: false });
    expect(await beside.run('openspace.file.write', { path: 'new.txt', content: 'person\n' })).toMatchObject({ success: true });
    expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('person\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect([asked, calls]).toEqual([[], []]);
  });

  it('no folder open: NO_WORKSPACE; a window command is not run here', async () => {
    const beside = besideFiles(scriptedWindow().window, { root: undefined });
    expect(await beside.run('openspace.file.read', { path: 'open.txt' }, AGENT)).toMatchObject({ success: false, code: 'NO_WORKSPACE' });
    expect(await beside.run('openspace.pane.list', {}, AGENT)).toMatchObject({ success: false, code: 'UNKNOWN_TOOL' });
  });
});
