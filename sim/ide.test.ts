import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOOLS } from '../src/families/index.js';
import { StatePublisher } from '../src/commands/state-publisher.js';
import type { PaneStateSnapshot } from '../src/contract/index.js';
import { SimIde } from './ide.js';

let ide: SimIde;
afterEach(() => ide?.dispose());

async function createIde(files: Record<string, string> = { 'a.ts': 'one\ntwo\nthree\n', 'b.ts': 'b\n' }) {
  ide = await SimIde.create({ workspace: { kind: 'memory', files } });
  return ide;
}

describe("the simulated IDE's command registry (what the palette shows)", () => {
  it('registers every openspace.* tool as a command labelled "OpenSpace: <title>"', async () => {
    await createIde();
    const commands = ide.registry.getCommands();
    expect(commands.map((c) => c.id).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const tool of TOOLS) expect(commands).toContainEqual({ id: tool.name, label: `OpenSpace: ${tool.title}` });
  });

  it('runs a command from the palette with the same result an agent gets, and refuses missing arguments', async () => {
    await createIde();
    const opened = await ide.registry.executeCommand('openspace.editor.open', { path: 'a.ts', line: 2 });
    expect(opened).toMatchObject({ success: true, path: 'a.ts' });
    expect(ide.editors.get('a.ts')?.cursor).toEqual({ line: 2, column: 1 });
    expect(await ide.registry.executeCommand('openspace.editor.open')).toMatchObject({ success: false, code: 'INVALID_ARGUMENT' });
    expect(await ide.registry.executeCommand('openspace.nope')).toMatchObject({ success: false, code: 'UNKNOWN_TOOL' });
  });
});

describe('what a person does next to the agent', () => {
  it('refuses to close an editor with unsaved changes unless forced, and the agent reads the unsaved buffer', async () => {
    await createIde();
    await ide.registry.executeCommand('openspace.editor.open', { path: 'a.ts' });
    ide.editors.personEdits('a.ts', 'one\nTWO\nthree\n');
    expect(await ide.registry.executeCommand('openspace.editor.read_file', { path: 'a.ts' })).toMatchObject({
      content: 'one\nTWO\nthree\n',
      isDirty: true,
    });
    expect(await ide.registry.executeCommand('openspace.file.read', { path: 'a.ts' })).toMatchObject({ content: 'one\ntwo\nthree\n' });
    expect(await ide.registry.executeCommand('openspace.editor.close', { path: 'a.ts' })).toMatchObject({
      success: false,
      code: 'DIRTY_BUFFER',
    });
    expect(await ide.registry.executeCommand('openspace.pane.close', { contentId: 'a.ts' })).toMatchObject({
      success: false,
      code: 'DIRTY_BUFFER',
    });
    expect(ide.editors.get('a.ts')).toBeDefined();
    expect(await ide.registry.executeCommand('openspace.editor.close', { path: 'a.ts', force: true })).toMatchObject({ success: true });
    expect(ide.editors.get('a.ts')).toBeUndefined();
  });

  it('never overwrites unsaved changes when the file is written underneath', async () => {
    await createIde();
    await ide.registry.executeCommand('openspace.editor.open', { path: 'a.ts' });
    ide.editors.personEdits('a.ts', 'mine\n');
    await ide.registry.executeCommand('openspace.file.write', { path: 'a.ts', content: 'theirs\n' });
    expect(ide.editors.text('a.ts')).toBe('mine\n');
    await ide.editors.personSaves('a.ts');
    expect(await ide.registry.executeCommand('openspace.file.read', { path: 'a.ts' })).toMatchObject({ content: 'mine\n' });
    expect(
      ide.layout
        .layout()
        .panes.flatMap((p) => p.tabs)
        .find((t) => t.contentId === 'a.ts')?.isDirty,
    ).toBe(false);
  });

  it("Escape in the focused editor clears the agent's highlights there, not elsewhere (AC-3.2.3)", async () => {
    await createIde();
    await ide.registry.executeCommand('openspace.editor.open', { path: 'b.ts' });
    await ide.registry.executeCommand('openspace.editor.highlight', {
      path: 'b.ts',
      ranges: [{ startLine: 1, endLine: 1 }],
      highlightId: 'in-b',
    });
    await ide.registry.executeCommand('openspace.editor.open', { path: 'a.ts' });
    await ide.registry.executeCommand('openspace.editor.highlight', {
      path: 'a.ts',
      ranges: [{ startLine: 1, endLine: 2 }],
      highlightId: 'in-a',
    });
    expect(ide.editors.personPressesEscape()).toEqual(['in-a']);
    expect(ide.editors.highlights().map((h) => h.highlightId)).toEqual(['in-b']);
  });

  it('highlight decorations cover exactly the ranges asked for', async () => {
    await createIde();
    await ide.registry.executeCommand('openspace.editor.open', { path: 'a.ts' });
    await ide.registry.executeCommand('openspace.editor.highlight', {
      path: 'a.ts',
      ranges: [{ startLine: 2, endLine: 3 }],
      highlightId: 'x',
      color: 'orange',
    });
    expect(ide.editors.highlights()).toEqual([{ highlightId: 'x', path: 'a.ts', ranges: [{ startLine: 2, endLine: 3 }], color: 'orange' }]);
  });
});

describe('FR-3.7 pane state publishing', () => {
  afterEach(() => vi.useRealTimers());

  it('publishes at most once a second, the first change at once and the last change always (trailing edge)', async () => {
    vi.useFakeTimers();
    await createIde(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.ts`, `${i}\n`])));
    const published: PaneStateSnapshot[] = [];
    const publisher = new StatePublisher(ide.port, (s) => published.push(s), 1000);
    await vi.advanceTimersByTimeAsync(0);
    expect(published).toHaveLength(1); // the initial state
    await vi.advanceTimersByTimeAsync(1000);

    for (let i = 0; i < 10; i++) {
      await ide.registry.executeCommand('openspace.editor.open', { path: `f${i}.ts` });
      await vi.advanceTimersByTimeAsync(50);
    }
    // 10 changes within 500 ms: the first went out at once, the rest wait for the trailing publish.
    expect(published).toHaveLength(2);
    expect(published[1]!.activeContentId).toBe('f0.ts');
    await vi.advanceTimersByTimeAsync(1000);
    expect(published).toHaveLength(3);
    expect(published[2]!.activeContentId).toBe('f9.ts');
    expect(published[2]!.activeEditor).toBe('f9.ts');
    // Nothing changed since: nothing more is sent.
    await vi.advanceTimersByTimeAsync(5000);
    expect(published).toHaveLength(3);
    // After a quiet second, the next change goes out at once again.
    await ide.registry.executeCommand('openspace.editor.close', { path: 'f9.ts' });
    await vi.advanceTimersByTimeAsync(0);
    expect(published).toHaveLength(4);
    expect(JSON.stringify(published[3]!.panes)).not.toContain('f9.ts');
    publisher.dispose();
  });

  it('never publishes more than one snapshot in any one-second window under a steady stream of changes', async () => {
    vi.useFakeTimers();
    await createIde({ 'a.ts': 'a\n', 'b.ts': 'b\n' });
    const times: number[] = [];
    const publisher = new StatePublisher(ide.port, () => times.push(Date.now()), 1000);
    for (let i = 0; i < 100; i++) {
      await ide.registry.executeCommand('openspace.pane.focus', { contentId: i % 2 ? 'a.ts' : 'b.ts' }).catch(() => undefined);
      await ide.registry.executeCommand('openspace.editor.open', { path: i % 2 ? 'a.ts' : 'b.ts' });
      await vi.advanceTimersByTimeAsync(37);
    }
    await vi.advanceTimersByTimeAsync(2000);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(times.length).toBeGreaterThanOrEqual(3);
    publisher.dispose();
  });
});

describe('sensitive and protected files', () => {
  it('extends the built-in patterns from .openspace/settings.json', async () => {
    ide = await SimIde.create({
      workspace: {
        kind: 'memory',
        files: {
          '.openspace/settings.json': JSON.stringify({
            'openspace.security.sensitiveFilePatterns': ['*.secret.txt'],
            'openspace.security.protectedFilePatterns': ['dist/**'],
          }),
          'db.secret.txt': 'hunter2',
          'plain.txt': 'ok',
        },
      },
    });
    expect(await ide.registry.executeCommand('openspace.file.read', { path: 'db.secret.txt' })).toMatchObject({
      success: false,
      code: 'SENSITIVE_FILE',
    });
    expect(await ide.registry.executeCommand('openspace.file.read', { path: '.env' })).toMatchObject({
      success: false,
      code: 'SENSITIVE_FILE',
    });
    expect(await ide.registry.executeCommand('openspace.file.read', { path: 'plain.txt' })).toMatchObject({ success: true, content: 'ok' });
    expect(await ide.registry.executeCommand('openspace.file.write', { path: 'dist/x.js', content: '' })).toMatchObject({
      success: false,
      code: 'PROTECTED_PATH',
    });
    expect(await ide.registry.executeCommand('openspace.file.read', { path: '.openspace/settings.json' })).toMatchObject({ success: true });
    expect(await ide.registry.executeCommand('openspace.file.write', { path: '.openspace/settings.json', content: '{}' })).toMatchObject({
      success: false,
      code: 'PROTECTED_PATH',
    });
  });

  it('refuses a settings file it cannot use, saying what is wrong', async () => {
    await expect(SimIde.create({ workspace: { kind: 'memory', files: { '.openspace/settings.json': '{ nope' } } })).rejects.toThrow(
      /settings\.json in the workspace is not valid JSON/,
    );
    await expect(
      SimIde.create({
        workspace: {
          kind: 'memory',
          files: { '.openspace/settings.json': JSON.stringify({ 'openspace.security.sensitiveFilePatterns': ['/etc/*'] }) },
        },
      }),
    ).rejects.toThrow(/settings\.json/);
  });

  it('treats a symlink to a sensitive file as sensitive', async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { '.env': 'TOKEN=abc', 'notes.txt': 'hi' } } });
    ide.workspace.fs.symlinkSync('/workspace/.env', '/workspace/innocent.txt');
    expect(await ide.registry.executeCommand('openspace.file.read', { path: 'innocent.txt' })).toMatchObject({
      success: false,
      code: 'SENSITIVE_FILE',
    });
    ide.workspace.fs.symlinkSync('/workspace/.git', '/workspace/gitdir');
    expect(await ide.registry.executeCommand('openspace.file.write', { path: 'gitdir/config', content: 'x' })).toMatchObject({
      success: false,
      code: 'PROTECTED_PATH',
    });
  });
});

describe('terminal commands the sandbox cannot contain (NFR-3.6.3, issue 28)', () => {
  const read = async (id: string) =>
    ((await ide.registry.executeCommand('openspace.terminal.read_output', { terminalId: id })) as unknown as { output: string[] }).output;

  it('refuses deleting what the workspace holds with CONFIRMATION_REQUIRED, typing nothing, and sends ordinary ones', async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'build/x.o': 'x' } } });
    await ide.registry.executeCommand('openspace.terminal.create', { title: 't' });
    const refused = await ide.registry.executeCommand('openspace.terminal.send', { terminalId: 't', text: 'ls && rm -fr build' });
    expect(refused).toMatchObject({ success: false, code: 'CONFIRMATION_REQUIRED' });
    expect((refused as unknown as { error: string }).error).toMatch(
      /Agent wants to run: ls && rm -fr build — deletes or overwrites build, which holds files you could lose/,
    );
    expect((refused as unknown as { reasons: { rule: string }[] }).reasons.map((r) => r.rule)).toContain('deletes-person-files');
    expect(await ide.registry.executeCommand('openspace.terminal.send', { terminalId: 't', text: 'echo fine' })).toMatchObject({
      success: true,
    });
    await new Promise((r) => setImmediate(r));
    expect((await read('t')).join('\n')).not.toContain('rm -fr');
  });

  it('checks a command typed in pieces when Enter comes, and Ctrl-C drops what was typed', async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'notes.txt': 'mine\n' } } });
    await ide.registry.executeCommand('openspace.terminal.create', { title: 't' });
    const send = (text: string, enter?: boolean) =>
      ide.registry.executeCommand('openspace.terminal.send', { terminalId: 't', text, enter });
    expect(await send('rm -f', false)).toMatchObject({ success: true });
    expect(await send(' notes.txt')).toMatchObject({ success: false, code: 'CONFIRMATION_REQUIRED' });
    expect(await send('\u0003', false)).toMatchObject({ success: true });
    // The line is gone: the same piece alone is no deletion.
    expect(await send(' notes.txt')).toMatchObject({ success: true });
    expect(await send('echo ok')).toMatchObject({ success: true });
  });

  it('a workspace settings file cannot turn the confirmation of dangerous commands off (a cloned repository could)', async () => {
    ide = await SimIde.create({
      workspace: {
        kind: 'memory',
        files: { '.openspace/settings.json': JSON.stringify({ 'openspace.security.confirmDangerousCommands': false }), 'build/x.o': 'x' },
      },
    });
    await ide.registry.executeCommand('openspace.terminal.create', { title: 't' });
    expect(await ide.registry.executeCommand('openspace.terminal.send', { terminalId: 't', text: 'rm -rf ./build' })).toMatchObject({
      success: false,
      code: 'CONFIRMATION_REQUIRED',
    });
  });

  it('the person starting the IDE can turn the confirmation off (--no-confirm)', async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'build/x.o': 'x' } }, confirmDangerousCommands: false });
    await ide.registry.executeCommand('openspace.terminal.create', { title: 't' });
    expect(await ide.registry.executeCommand('openspace.terminal.send', { terminalId: 't', text: 'rm -rf build' })).toMatchObject({
      success: true,
    });
  });
});
