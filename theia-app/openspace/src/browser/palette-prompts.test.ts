import { afterEach, describe, expect, it } from 'vitest';
import { TOOLS_BY_NAME, TOOLS } from '../../../../src/families/index.js';
import { SimIde } from '../../../../sim/ide.js';
import { askArguments, planPrompts, type InputRequest, type PickRequest, type PromptUi } from './palette-prompts.js';

let ide: SimIde;
afterEach(() => ide?.dispose());

const tool = (name: string) => TOOLS_BY_NAME.get(`openspace.${name}`)!;

type Shown = { pick: PickRequest<unknown> } | { input: InputRequest } | { info: string };

/** A person answering each prompt in turn: `answer` gets what is shown and returns the choice (undefined: Escape). */
function person(...answers: Array<(shown: Shown) => unknown>) {
  const shown: Shown[] = [];
  const next = (s: Shown) => {
    shown.push(s);
    const answer = answers.shift();
    if (!answer) throw new Error(`no answer scripted for ${JSON.stringify(s)}`);
    return answer(s);
  };
  const ui: PromptUi = {
    pick: async <V>(request: PickRequest<V>) => next({ pick: request as PickRequest<unknown> }) as V | undefined,
    input: async (request) => next({ input: request }) as string | undefined,
    info: (message) => void shown.push({ info: message }),
  };
  return { ui, shown };
}

/** The row labelled `label` of the list shown, by its value. */
const choose = (label: string) => (shown: Shown) => {
  if (!('pick' in shown)) throw new Error('expected a list');
  const row = shown.pick.entries.find((e) => 'value' in e && e.label === label);
  if (!row || !('value' in row)) throw new Error(`no row "${label}" in ${JSON.stringify(shown.pick.entries)}`);
  return row.value;
};
const type = (text: string) => () => text;
const escape = () => undefined;
const labels = (shown: Shown) => ('pick' in shown ? shown.pick.entries.map((e) => ('value' in e ? e.label : `— ${e.separator}`)) : []);

describe("the palette's prompts, derived from each tool's input schema", () => {
  it('asks for every required argument of every tool, and the line, width and height it may take', () => {
    for (const t of TOOLS) {
      const asked = planPrompts(t).flatMap((p) => (p.kind === 'reference' ? p.fields : [p.field]));
      const required = Object.entries(t.input.shape)
        .filter(([, s]) => !s.safeParse(undefined).success)
        .map(([n]) => n);
      for (const name of required) expect(asked, t.name).toContain(name);
    }
    expect(planPrompts(tool('terminal.close'))).toEqual([{ kind: 'pick', field: 'terminalId', required: true, source: 'terminals' }]);
    expect(planPrompts(tool('editor.open'))).toEqual([
      { kind: 'pick', field: 'path', required: true, source: 'files' },
      { kind: 'input', field: 'line', required: false, parse: 'number' },
    ]);
    expect(planPrompts(tool('pane.open'))[0]).toEqual({
      kind: 'choice',
      field: 'type',
      required: true,
      values: ['editor', 'terminal', 'presentation', 'whiteboard'],
    });
    expect(planPrompts(tool('presentation.navigate'))).toEqual([
      { kind: 'pick', field: 'deckPath', required: true, source: 'files' },
      { kind: 'input', field: 'slideIndex', required: true, parse: 'number' },
    ]);
    expect(planPrompts(tool('whiteboard.add_shape'))[1]).toMatchObject({ field: 'shape', parse: 'json' });
    expect(planPrompts(tool('pane.close'))).toEqual([{ kind: 'reference', fields: ['paneId', 'contentId'] }]);
    expect(planPrompts(tool('editor.clear_highlight'))).toEqual([{ kind: 'reference', fields: ['highlightId', 'path'] }]);
    expect(planPrompts(tool('editor.highlight'))[1]).toMatchObject({ field: 'ranges', parse: 'ranges' });
    expect(planPrompts(tool('file.patch'))[2]).toMatchObject({ field: 'operations', parse: 'json' });
    for (const name of ['terminal.create', 'terminal.list', 'pane.list', 'file.list']) expect(planPrompts(tool(name)), name).toEqual([]);
  });

  it("Close Terminal lists the terminals and answers the chosen one's ID", async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'a.ts': 'one\ntwo\nthree\n' } } });
    await ide.registry.executeCommand('openspace.terminal.create', { title: 'build' });
    await ide.registry.executeCommand('openspace.terminal.create', { title: 'Test Runner' });
    const { ui, shown } = person(choose('Test Runner'));
    expect(await askArguments(tool('terminal.close'), ide.port, ui)).toEqual({ terminalId: 'test-runner' });
    expect(labels(shown[0]!)).toEqual(['build', 'Test Runner']);
    expect(shown[0]).toMatchObject({ pick: { title: 'OpenSpace: Close Terminal', placeholder: 'Choose a terminal' } });
  });

  it('Open Editor takes a file (open editors first) and a line checked by the schema; an empty line is left out', async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'a.ts': 'one\ntwo\nthree\n', 'src/b.ts': 'b\n' } } });
    await ide.registry.executeCommand('openspace.editor.open', { path: 'src/b.ts' });
    let line: InputRequest | undefined;
    const { ui, shown } = person(choose('a.ts'), (s) => {
      line = 'input' in s ? s.input : undefined;
      return '2';
    });
    expect(await askArguments(tool('editor.open'), ide.port, ui)).toEqual({ path: 'a.ts', line: 2 });
    expect(labels(shown[0]!)).toEqual(['— open editors', 'b.ts', '— workspace files', 'a.ts']);
    expect(line!.validate('abc')).toBe('Enter a number.');
    expect(line!.validate('0')).toMatch(/>=1/);
    expect(line!.validate('1.5')).toMatch(/int/);
    expect(line!.validate('')).toBeUndefined();
    expect(await askArguments(tool('editor.open'), ide.port, person(choose('b.ts'), type('')).ui)).toEqual({ path: 'src/b.ts' });
  });

  it('Escape at any prompt answers nothing to run', async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'a.ts': 'one\n' } } });
    expect(await askArguments(tool('editor.open'), ide.port, person(escape).ui)).toBeUndefined();
    expect(await askArguments(tool('editor.scroll_to'), ide.port, person(choose('a.ts'), escape).ui)).toBeUndefined();
    expect(await askArguments(tool('terminal.list'), ide.port, person().ui)).toEqual({});
  });

  it('says so, and asks nothing, when there is nothing to choose', async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'a.ts': 'one\n' } } });
    const { ui, shown } = person();
    expect(await askArguments(tool('terminal.close'), ide.port, ui)).toBeUndefined();
    expect(shown).toEqual([{ info: 'OpenSpace: Close Terminal: there is no terminal to choose.' }]);
  });

  it("turns text into the argument's type: line ranges, JSON, a pane or a tab, the file's current version preset", async () => {
    ide = await SimIde.create({ workspace: { kind: 'memory', files: { 'a.ts': 'one\ntwo\nthree\n' } } });
    expect(await askArguments(tool('editor.highlight'), ide.port, person(choose('a.ts'), type('1-2, 3')).ui)).toEqual({
      path: 'a.ts',
      ranges: [
        { startLine: 1, endLine: 2 },
        { startLine: 3, endLine: 3 },
      ],
    });
    await ide.registry.executeCommand('openspace.editor.open', { path: 'a.ts' });
    expect(await askArguments(tool('pane.close'), ide.port, person(choose('a.ts')).ui)).toEqual({ contentId: 'a.ts' });
    expect(await askArguments(tool('pane.focus'), ide.port, person(choose('main-1')).ui)).toEqual({ paneId: 'main-1' });
    const { version } = await ide.registry.executeCommand('openspace.file.read', { path: 'a.ts' });
    let operations: InputRequest | undefined;
    const args = await askArguments(
      tool('file.patch'),
      ide.port,
      person(
        choose('a.ts'),
        (s) => ('input' in s ? s.input.value : undefined),
        (s) => {
          operations = 'input' in s ? s.input : undefined;
          return '[{"type":"append","content":"four"}]';
        },
      ).ui,
    );
    expect(args).toEqual({ path: 'a.ts', baseVersion: version, operations: [{ type: 'append', content: 'four' }] });
    expect(operations!.prompt).toContain('JSON, e.g. [{"type":"insert","line":1,"content":"…"}]');
    expect(operations!.validate('[')).toMatch(/^Not valid JSON/);
    expect(operations!.validate('[]')).toMatch(/>=1 items/);
  });
});
