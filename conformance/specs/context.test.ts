/**
 * openspace.context.get (issue 14): what the person has in front of them, in one call. The person
 * selects on every target: through the simulated IDE's person API, or with Theia's keyboard in
 * Chromium (Home, then Shift+End, in the editor the agent opened).
 */
import { realpath } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SELECTION_TEXT_LIMIT } from '../../src/families/index.js';
import { eventually, useTarget } from '../setup.js';
import { personOpens } from '../person.js';

const ctx = useTarget();
const APP = 'code/src/app.ts';
const LINE_5 = 'const store = new TaskStore();';

/** A person selects line `line` of `path` whole, as Home then Shift+End does. */
async function personSelectsLine(path: string, line: number, length: number): Promise<void> {
  const { sim, page } = ctx.target;
  if (sim) return sim.editors.personSelects(path, { line, column: 1 }, { line, column: length + 1 });
  if (!page) throw new Error('this target has no person to select text');
  await ctx.agent.ok('openspace.editor.open', { path, line });
  await page.locator(`.theia-editor[id*="/${path}"] .view-lines`).first().click();
  await ctx.agent.ok('openspace.editor.open', { path, line });
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
}

/** A person selects a whole file (Ctrl+A), whose last line ends at `end`. */
async function personSelectsAll(path: string, end?: { line: number; column: number }): Promise<void> {
  const { sim, page } = ctx.target;
  if (sim) return sim.editors.personSelects(path, { line: 1, column: 1 }, end!);
  if (!page) throw new Error('this target has no person to select text');
  await page.locator(`.theia-editor[id*="/${path}"] .view-lines`).first().click();
  await page.keyboard.press('ControlOrMeta+a');
}

describe('context.get', () => {
  it('names the file, cursor and selection a person made, with the selected text, and what is open', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 1 });
    await ctx.agent.ok('openspace.editor.open', { path: APP, line: 5 });
    await personSelectsLine(APP, 5, LINE_5.length);

    const context = await eventually(async () => {
      const answer = await ctx.agent.ok('openspace.context.get', {});
      expect(answer.editor?.selection.empty).toBe(false);
      return answer;
    });
    expect(context.editor).toMatchObject({
      path: APP,
      cursor: { line: 5, column: LINE_5.length + 1 },
      selection: { start: { line: 5, column: 1 }, end: { line: 5, column: LINE_5.length + 1 }, empty: false, text: LINE_5 },
      isDirty: false,
    });
    expect(context.editor.visibleRange.startLine).toBeLessThanOrEqual(5);
    expect(context.editor.visibleRange.endLine).toBeGreaterThanOrEqual(5);
    expect(context.focus).toMatchObject({ contentId: APP, type: 'editor' });
    expect(context.openEditors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining([APP, 'src/index.ts']));
    if (ctx.target.workspaceDir) expect(await realpath(context.workspaceRoot)).toBe(await realpath(ctx.target.workspaceDir));
    else expect(typeof context.workspaceRoot).toBe('string');
  });

  it('a long selection comes cut at the limit, saying so', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `line ${i} `.padEnd(40, '.')).join('\n');
    await ctx.agent.ok('openspace.file.write', { path: 'long.txt', content: long });
    await ctx.agent.ok('openspace.editor.open', { path: 'long.txt', line: 1 });
    await personSelectsAll('long.txt', { line: 200, column: 41 });
    const { selection } = (
      await eventually(async () => {
        const answer = await ctx.agent.ok('openspace.context.get', {});
        expect(answer.editor.selection.end.line).toBe(200);
        return answer;
      })
    ).editor;
    expect(selection).toMatchObject({ start: { line: 1, column: 1 }, end: { line: 200, column: 41 }, truncated: true });
    expect(selection.text).toBe(long.slice(0, SELECTION_TEXT_LIMIT));
  });

  it('a selection in a sensitive file comes without its text', async (t) => {
    // The simulated IDE's editors read through the agent's file policy: its person cannot open one.
    if (!ctx.target.page) return t.skip('a person opening a sensitive file needs a real IDE (Theia)');
    await personOpens(ctx, t, 'code/src/secrets.ts');
    await personSelectsAll('code/src/secrets.ts');
    const { editor } = await eventually(async () => {
      const answer = await ctx.agent.ok('openspace.context.get', {});
      expect(answer.editor).toMatchObject({ path: 'code/src/secrets.ts', selection: { empty: false } });
      return answer;
    });
    expect(editor.selection.withheld).toBe('sensitive file');
    expect(editor.selection.text).toBeUndefined();
    expect(JSON.stringify(editor)).not.toContain('fixture-api-key');
  });

  it('lists terminals with the time each last printed', async () => {
    await ctx.agent.ok('openspace.terminal.create', { title: 'context-runner' });
    const before = Date.now();
    const sent = await ctx.agent.ok('openspace.terminal.send', { terminalId: 'context-runner', text: 'echo context-ping' });
    await eventually(async () => {
      const read = await ctx.agent.ok('openspace.terminal.read_output', { terminalId: 'context-runner', since: sent.cursor });
      expect(read.output, JSON.stringify(read)).toContain('context-ping');
    });
    const { terminals } = await ctx.agent.ok('openspace.context.get', {});
    const runner = terminals.find((t: { terminalId: string }) => t.terminalId === 'context-runner');
    expect(runner).toMatchObject({ title: 'context-runner', running: true });
    expect(Date.parse(runner.lastActivity)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(runner.lastActivity)).toBeLessThanOrEqual(Date.now());
  });
});
