/**
 * Code intelligence (issue 13): diagnostics, symbols, definitions, references and hover from a real
 * language server (typescript-language-server), against the fixture's `code/` project, whose
 * answers below are written by hand from its source:
 *   code/src/app.ts         two errors: line 10 assigns a number to a string (TS2322), line 12
 *                           uses toUpper without importing it (TS2304); uses TaskStore, formatTask, apiKey
 *   code/src/task-store.ts  interface Task, class TaskStore { tasks, add, complete, pending }
 *   code/src/format.ts      formatTask, toUpper
 *   code/src/secrets.ts     sensitive (secrets.*): never in any answer
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { eventually, useTarget } from '../setup.js';

const ctx = useTarget();

const APP = 'code/src/app.ts';
const STORE = 'code/src/task-store.ts';
const FORMAT = 'code/src/format.ts';
const SECRET_TEXT = 'fixture-api-key-9f3c2e';

const SUMMARY_ERROR = {
  path: APP,
  range: { startLine: 10, startColumn: 14, endLine: 10, endColumn: 21 },
  severity: 'error',
  code: 2322,
  message: "Type 'number' is not assignable to type 'string'.",
  source: 'typescript',
  lineText: 'export const summary: string = store.pending().length;',
};
const TO_UPPER_ERROR = {
  path: APP,
  range: { startLine: 12, startColumn: 34, endLine: 12, endColumn: 41 },
  severity: 'error',
  code: 2304,
  message: "Cannot find name 'toUpper'.",
  source: 'typescript',
  lineText: 'export const printed = lines.map(toUpper);',
};

/** No answer may show the sensitive file or what it holds. */
function expectNoSecret(answer: unknown): void {
  const json = JSON.stringify(answer);
  expect(json).not.toContain('secrets.ts');
  expect(json).not.toContain(SECRET_TEXT);
}

const at = (path: string, startLine: number, startColumn: number) =>
  expect.objectContaining({ path, range: expect.objectContaining({ startLine, startColumn }) });

describe('diagnostics.list', () => {
  it("answers a file's errors with range, severity, message, source, code and the line's text", async () => {
    const answer = await ctx.agent.ok('openspace.diagnostics.list', { path: APP });
    expect(answer.diagnostics).toEqual([SUMMARY_ERROR, TO_UPPER_ERROR]);
    expect(answer.counts).toEqual({ error: 2, warning: 0, info: 0, hint: 0 });
    expect(answer.filesChecked).toBe(1);
    expect(answer.truncated).toBe(false);
  });

  it('a fix through file.patch clears the error it fixes, and only that one', async () => {
    const { content, version } = await ctx.agent.ok('openspace.file.read', { path: APP });
    const patched = await ctx.agent.ok('openspace.file.patch', {
      path: APP,
      baseVersion: version,
      operations: [
        {
          type: 'replace_text',
          oldText: "import { formatTask } from './format.js';",
          newText: "import { formatTask, toUpper } from './format.js';",
        },
      ],
    });
    try {
      const after = await ctx.agent.ok('openspace.diagnostics.list', { path: APP });
      expect(after.diagnostics).toEqual([SUMMARY_ERROR]);
      expect(after.counts.error).toBe(1);
    } finally {
      await ctx.agent.ok('openspace.file.write', { path: APP, content });
    }
    expect(patched.version).not.toBe(version);
    expect((await ctx.agent.ok('openspace.diagnostics.list', { path: APP })).diagnostics).toEqual([SUMMARY_ERROR, TO_UPPER_ERROR]);
  });

  it('a directory: every file of a language with a server under it, the sensitive one left out', async () => {
    const answer = await ctx.agent.ok('openspace.diagnostics.list', { path: 'code' });
    expect(answer.diagnostics).toEqual([SUMMARY_ERROR, TO_UPPER_ERROR]);
    expect(answer.filesChecked).toBe(3); // app.ts, format.ts, task-store.ts; not secrets.ts
    expectNoSecret(answer);
  });

  it('limit and severity narrow the answer; counts still count everything', async () => {
    const limited = await ctx.agent.ok('openspace.diagnostics.list', { path: APP, limit: 1 });
    expect(limited.diagnostics).toEqual([SUMMARY_ERROR]);
    expect(limited.truncated).toBe(true);
    expect(limited.counts.error).toBe(2);
    const errorsOnly = await ctx.agent.ok('openspace.diagnostics.list', { path: FORMAT, severity: 'error' });
    expect(errorsOnly).toMatchObject({ diagnostics: [], counts: { error: 0 }, filesChecked: 1 });
  });

  it("answers for the text a person sees: an editor's unsaved changes count", async (t) => {
    const sim = ctx.target.sim;
    if (!sim)
      return t.skip("needs a person's unsaved edit of a TypeScript file: the simulated IDE's probe (Theia's comes with its Monaco wiring)");
    await ctx.agent.ok('openspace.editor.open', { path: FORMAT });
    const { content } = await ctx.agent.ok('openspace.file.read', { path: FORMAT });
    sim.editors.personEdits(FORMAT, content.replace('return text.toUpperCase();', 'return text.toUpperCase(1);'));
    try {
      const answer = await ctx.agent.ok('openspace.diagnostics.list', { path: FORMAT });
      expect(answer.diagnostics).toEqual([
        expect.objectContaining({
          severity: 'error',
          code: 2554,
          range: expect.objectContaining({ startLine: 9 }),
          lineText: '  return text.toUpperCase(1);',
        }),
      ]);
      // Nothing was saved: the file on disk is as it was.
      expect((await ctx.agent.ok('openspace.file.read', { path: FORMAT })).content).toBe(content);
    } finally {
      // Closed without saving: the file is what is on disk again, for the server too.
      await ctx.agent.ok('openspace.editor.close', { path: FORMAT, force: true });
    }
    expect((await ctx.agent.ok('openspace.diagnostics.list', { path: FORMAT })).diagnostics).toEqual([]);
  });

  it("another file's unsaved changes count, until its editor is closed without saving", async (t) => {
    const sim = ctx.target.sim;
    if (!sim) return t.skip("needs a person's unsaved edit of a TypeScript file: the simulated IDE's probe (Theia's is an E2E)");
    await ctx.agent.ok('openspace.editor.open', { path: STORE });
    const { content } = await ctx.agent.ok('openspace.file.read', { path: STORE });
    sim.editors.personEdits(STORE, content.replace('  pending(): Task[] {', '  open(): Task[] {'));
    try {
      const answer = await ctx.agent.ok('openspace.diagnostics.list', { path: APP });
      expect(answer.diagnostics).toEqual([
        expect.objectContaining({
          code: 2339,
          message: "Property 'pending' does not exist on type 'TaskStore'.",
          range: expect.objectContaining({ startLine: 10 }),
        }),
        expect.objectContaining({
          code: 2339,
          message: "Property 'pending' does not exist on type 'TaskStore'.",
          range: expect.objectContaining({ startLine: 11 }),
        }),
        expect.objectContaining({ code: 2304, range: expect.objectContaining({ startLine: 12 }) }),
      ]);
    } finally {
      await ctx.agent.ok('openspace.editor.close', { path: STORE, force: true });
    }
    // The server has the saved text again: the two errors the file has on disk.
    expect((await ctx.agent.ok('openspace.diagnostics.list', { path: APP })).diagnostics).toEqual([SUMMARY_ERROR, TO_UPPER_ERROR]);
  });
});

describe('symbols', () => {
  it('symbols.search finds a class by name, exact names first, with its place and line', async () => {
    const { symbols } = await ctx.agent.ok('openspace.symbols.search', { query: 'TaskStore' });
    expect(symbols[0]).toEqual({
      name: 'TaskStore',
      kind: 'class',
      path: STORE,
      range: expect.objectContaining({ startLine: 9 }),
      lineText: 'export class TaskStore {',
    });
    const methods = await ctx.agent.ok('openspace.symbols.search', { query: 'add', kind: 'method' });
    expect(methods.symbols).toContainEqual(
      expect.objectContaining({ name: 'add', kind: 'method', containerName: 'TaskStore', path: STORE }),
    );
    expect(methods.symbols.every((s: { kind: string }) => s.kind === 'method')).toBe(true);
  });

  it('symbols.outline nests members under their class and interface', async () => {
    const { symbols, truncated } = await ctx.agent.ok('openspace.symbols.outline', { path: STORE });
    expect(truncated).toBe(false);
    const shape = (list: Array<{ name: string; kind: string; children?: unknown[] }>) => list.map((s) => `${s.kind} ${s.name}`);
    expect(shape(symbols)).toEqual(['interface Task', 'class TaskStore']);
    expect(shape(symbols[0].children)).toEqual(['property id', 'property title', 'property done']);
    expect(shape(symbols[1].children)).toEqual(['property tasks', 'method add', 'method complete', 'method pending']);
    expect(symbols[1].range).toEqual({ startLine: 9, startColumn: 1, endLine: 27, endColumn: 2 });
  });
});

describe('definition, references, hover', () => {
  it('code.definition follows a use to its declaration in another file', async () => {
    const answer = await ctx.agent.ok('openspace.code.definition', { path: APP, line: 11, column: 42 });
    expect(answer.definitions).toEqual([
      {
        path: FORMAT,
        range: { startLine: 4, startColumn: 17, endLine: 4, endColumn: 27 },
        lineText: 'export function formatTask(task: Task): string {',
      },
    ]);
    expect(answer.outsideWorkspace).toBe(0);
  });

  it('a symbol by name instead of a position ("TaskStore.add")', async () => {
    const answer = await ctx.agent.ok('openspace.code.definition', { symbol: 'TaskStore.add' });
    expect(answer.symbol).toEqual({ name: 'add', kind: 'method', containerName: 'TaskStore', path: STORE, line: 13, otherMatches: 0 });
    expect(answer.definitions).toEqual([at(STORE, 13, 3)]);
  });

  it('code.references across files, with and without the declaration', async () => {
    const all = await ctx.agent.ok('openspace.code.references', { symbol: 'TaskStore.add' });
    expect(all.references).toEqual([at(STORE, 13, 3), at(APP, 6, 7), at(APP, 7, 7)]);
    expect(all.references[1].lineText).toBe("store.add('Write the spec');");
    expect(all).toMatchObject({ total: 3, truncated: false });
    const uses = await ctx.agent.ok('openspace.code.references', { symbol: 'TaskStore.add', includeDeclaration: false });
    expect(uses.references).toEqual([at(APP, 6, 7), at(APP, 7, 7)]);
    const ofTask = await ctx.agent.ok('openspace.code.references', { path: STORE, line: 2, column: 18 });
    expect(ofTask.references).toEqual([
      at(STORE, 2, 18),
      at(STORE, 10, 27),
      at(STORE, 13, 23),
      at(STORE, 24, 14),
      at(FORMAT, 1, 15),
      at(FORMAT, 4, 34),
    ]);
    const limited = await ctx.agent.ok('openspace.code.references', { path: STORE, line: 2, column: 18, limit: 2 });
    expect(limited).toMatchObject({ total: 6, truncated: true });
    expect(limited.references).toHaveLength(2);
  });

  it('code.hover answers the type and the documentation', async () => {
    const onStore = await ctx.agent.ok('openspace.code.hover', { path: APP, line: 5, column: 7 });
    expect(onStore.contents).toContain('const store: TaskStore');
    expect(onStore.range).toEqual({ startLine: 5, startColumn: 7, endLine: 5, endColumn: 12 });
    const byName = await ctx.agent.ok('openspace.code.hover', { symbol: 'formatTask' });
    expect(byName.contents).toContain('function formatTask(task: Task): string');
    expect(byName.contents).toContain('One line per task: a checkbox and the title.');
    expect(byName.symbol).toMatchObject({ name: 'formatTask', kind: 'function', path: FORMAT, line: 4 });
  });
});

describe('bad input and what agents may not see', () => {
  it('a sensitive file is never in an answer, nor is a hit inside one', async () => {
    await ctx.agent.fails('openspace.diagnostics.list', { path: 'code/src/secrets.ts' }, 'SENSITIVE_FILE');
    await ctx.agent.fails('openspace.symbols.outline', { path: 'code/src/secrets.ts' }, 'SENSITIVE_FILE');
    const definition = await ctx.agent.ok('openspace.code.definition', { path: APP, line: 13, column: 26 });
    expect(definition.definitions).toEqual([]);
    const references = await ctx.agent.ok('openspace.code.references', { path: APP, line: 13, column: 26 });
    expect(references.references).toEqual([at(APP, 3, 10), at(APP, 13, 26)]);
    const search = await ctx.agent.ok('openspace.symbols.search', { query: 'apiKey' });
    await ctx.agent.fails('openspace.code.hover', { symbol: 'apiKey' }, 'SYMBOL_NOT_FOUND');
    for (const answer of [definition, references, search, await ctx.agent.ok('openspace.diagnostics.list', {})]) expectNoSecret(answer);
  });

  it('a file no language server handles: LANGUAGE_NOT_SUPPORTED; a name nothing declares: SYMBOL_NOT_FOUND with near names', async () => {
    const notes = await ctx.agent.fails('openspace.diagnostics.list', { path: 'notes.txt' }, 'LANGUAGE_NOT_SUPPORTED');
    expect(notes.error).toContain('notes.txt');
    await ctx.agent.fails('openspace.code.hover', { path: 'README.md', line: 1, column: 1 }, 'LANGUAGE_NOT_SUPPORTED');
    const missing = await ctx.agent.fails('openspace.code.references', { symbol: 'TaskStore.remove' }, 'SYMBOL_NOT_FOUND');
    expect(missing.error).toContain('TaskStore.remove');
    await ctx.agent.fails('openspace.diagnostics.list', { path: 'code/src/nowhere.ts' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.code.definition', { path: '../outside.ts', line: 1, column: 1 }, 'PATH_OUTSIDE_WORKSPACE');
  });

  it('a position and a symbol at once, or half a position, is INVALID_ARGUMENT naming the fields', async () => {
    const both = await ctx.agent.fails(
      'openspace.code.definition',
      { symbol: 'TaskStore', path: APP, line: 1, column: 1 },
      'INVALID_ARGUMENT',
    );
    expect(both.fields).toContain('symbol');
    const half = await ctx.agent.fails('openspace.code.references', { path: APP }, 'INVALID_ARGUMENT');
    expect(half.fields).toEqual(expect.arrayContaining(['line', 'column']));
  });
});

describe('a language server that is starting, or crashes', () => {
  it('a crashed server is restarted, and the next answer says so', async (t) => {
    if (!ctx.target.typescriptServerPid) return t.skip("needs the server's process: a target the suite started");
    await ctx.agent.ok('openspace.diagnostics.list', { path: APP });
    const pid = await ctx.target.typescriptServerPid();
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGKILL');
    const answer = await eventually(() => ctx.agent.ok('openspace.diagnostics.list', { path: APP }), 10_000, 200);
    expect(answer.notice).toMatch(/typescript language server exited .*restarted/);
    expect(answer.diagnostics).toEqual([SUMMARY_ERROR, TO_UPPER_ERROR]);
    expect((await ctx.agent.ok('openspace.diagnostics.list', { path: APP })).notice).toBeUndefined();
  });
});

// A language server configured for the test alone (the simulated IDE's option, Theia's launcher's);
// a hub the suite does not start has its own servers.
describe.runIf(['sim', 'theia'].includes(process.env.OPENSPACE_TARGET ?? 'sim'))('LSP_NOT_READY while a server starts', () => {
  const slow = useTarget({
    languageServers: [
      {
        name: 'slow',
        command: [process.execPath, fileURLToPath(new URL('../fixtures/language-servers/slow-start.mjs', import.meta.url))],
        extensions: ['.md'],
      },
    ],
    languageServerReadyWaitMs: 300,
  });

  it('answers LSP_NOT_READY with retryAfterMs, not a hang', async () => {
    const started = Date.now();
    const answer = await slow.agent.fails('openspace.symbols.outline', { path: 'README.md' }, 'LSP_NOT_READY');
    expect(answer.retryAfterMs).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
