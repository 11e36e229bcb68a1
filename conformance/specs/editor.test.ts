import { describe, expect, it } from 'vitest';
import { useTarget } from '../setup.js';

const ctx = useTarget();

describe('US-3.1 agent opens a file at a line', () => {
  it('opens src/index.ts at line 42 with the cursor there and line 42 visible (AC-3.1.1, AC-3.1.2, T1)', async () => {
    const opened = await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 42 });
    expect(opened).toMatchObject({ path: 'src/index.ts', lineCount: 100 });
    expect(opened.visibleRange.startLine).toBeLessThanOrEqual(42);
    expect(opened.visibleRange.endLine).toBeGreaterThanOrEqual(42);
    // Centred: about as many lines above 42 as below it.
    const above = 42 - opened.visibleRange.startLine;
    const below = opened.visibleRange.endLine - 42;
    expect(Math.abs(above - below)).toBeLessThanOrEqual(2);

    const { panes } = await ctx.agent.ok('openspace.pane.list');
    const pane = panes.find((p: { id: string }) => p.id === opened.paneId);
    expect(pane.tabs[pane.activeTabIndex]).toMatchObject({ contentId: 'src/index.ts', type: 'editor', title: 'index.ts', isDirty: false });
    expect(pane.geometry.width).toBeGreaterThan(0);
    expect(pane.geometry.height).toBeGreaterThan(0);
  });

  it('accepts ./ and absolute-looking forms of the same path and reports the workspace-relative one', async () => {
    const opened = await ctx.agent.ok('openspace.editor.open', { path: './src/../src/index.ts' });
    expect(opened.path).toBe('src/index.ts');
  });

  it('answers a missing file with success:false and FILE_NOT_FOUND, at once (AC-3.1.3, US-3.6)', async () => {
    const started = Date.now();
    const result = await ctx.agent.fails('openspace.editor.open', { path: 'missing.ts' }, 'FILE_NOT_FOUND');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result.error).toMatch(/missing\.ts/);
    // The agent can recover in the same turn: the IDE is unchanged and still answers.
    const { panes } = await ctx.agent.ok('openspace.pane.list');
    expect(JSON.stringify(panes)).not.toContain('missing.ts');
  });

  it('rejects a line past the end of the file with RANGE_INVALID naming the line count', async () => {
    const result = await ctx.agent.fails('openspace.editor.open', { path: 'src/index.ts', line: 500 }, 'RANGE_INVALID');
    expect(result.error).toMatch(/100 lines/);
  });

  it('selects line..endLine and can highlight it in the same call', async () => {
    const opened = await ctx.agent.ok('openspace.editor.open', {
      path: 'src/auth.ts',
      line: 10,
      endLine: 12,
      highlight: true,
      highlightId: 'open-hl',
    });
    expect(opened.highlightId).toBe('open-hl');
    const cleared = await ctx.agent.ok('openspace.editor.clear_highlight', { highlightId: 'open-hl' });
    expect(cleared.cleared).toEqual(['open-hl']);
  });

  it('refuses a directory with NOT_A_FILE', async () => {
    await ctx.agent.fails('openspace.editor.open', { path: 'src' }, 'NOT_A_FILE');
  });
});

describe('US-3.2 agent highlights code regions', () => {
  it('keeps several highlights by ID and clears one without touching the other (AC-3.2.1, AC-3.2.4, AC-3.3.3)', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 42 });
    const first = await ctx.agent.ok('openspace.editor.highlight', {
      path: 'src/index.ts',
      ranges: [{ startLine: 42, endLine: 50 }],
      highlightId: 'fix-1',
    });
    expect(first).toMatchObject({ highlightId: 'fix-1', path: 'src/index.ts', ranges: [{ startLine: 42, endLine: 50 }] });
    await ctx.agent.ok('openspace.editor.highlight', {
      path: 'src/index.ts',
      ranges: [{ startLine: 10, endLine: 12 }],
      highlightId: 'fix-2',
      color: '#ffcc00',
    });

    expect((await ctx.agent.ok('openspace.editor.clear_highlight', { highlightId: 'fix-1' })).cleared).toEqual(['fix-1']);
    // fix-1 is gone, fix-2 remains: clearing fix-1 again fails, clearing fix-2 works.
    await ctx.agent.fails('openspace.editor.clear_highlight', { highlightId: 'fix-1' }, 'HIGHLIGHT_NOT_FOUND');
    expect((await ctx.agent.ok('openspace.editor.clear_highlight', { highlightId: 'fix-2' })).cleared).toEqual(['fix-2']);
  });

  it("generates a highlight ID when none is given (T2) and clears all of a file's highlights by path", async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
    const a = await ctx.agent.ok('openspace.editor.highlight', { path: 'src/index.ts', ranges: [{ startLine: 1, endLine: 2 }] });
    const b = await ctx.agent.ok('openspace.editor.highlight', {
      path: 'src/index.ts',
      ranges: [{ startLine: 3, endLine: 4, startColumn: 1, endColumn: 5 }],
    });
    expect(a.highlightId).toMatch(/\S/);
    expect(b.highlightId).not.toBe(a.highlightId);
    const cleared = await ctx.agent.ok('openspace.editor.clear_highlight', { path: 'src/index.ts' });
    expect(cleared.cleared.sort()).toEqual([a.highlightId, b.highlightId].sort());
  });

  it('scrolls a highlight that is out of view into view', async () => {
    const atEnd = await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 90 });
    expect(atEnd.visibleRange.startLine).toBeGreaterThan(6);
    await ctx.agent.ok('openspace.editor.highlight', { path: 'src/index.ts', ranges: [{ startLine: 5, endLine: 6 }], highlightId: 'far' });
    const after = await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
    expect(after.visibleRange.startLine).toBeLessThanOrEqual(5);
    expect(after.visibleRange.endLine).toBeGreaterThanOrEqual(6);
    await ctx.agent.ok('openspace.editor.clear_highlight', { highlightId: 'far' });
  });

  it('replaces a highlight when its ID is reused', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
    await ctx.agent.ok('openspace.editor.highlight', { path: 'src/index.ts', ranges: [{ startLine: 5, endLine: 6 }], highlightId: 'same' });
    await ctx.agent.ok('openspace.editor.highlight', { path: 'src/index.ts', ranges: [{ startLine: 7, endLine: 8 }], highlightId: 'same' });
    expect((await ctx.agent.ok('openspace.editor.clear_highlight', { path: 'src/index.ts' })).cleared).toEqual(['same']);
  });

  it('rejects ranges outside the file or ending before they start with RANGE_INVALID', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
    await ctx.agent.fails(
      'openspace.editor.highlight',
      { path: 'src/index.ts', ranges: [{ startLine: 99, endLine: 101 }] },
      'RANGE_INVALID',
    );
    await ctx.agent.fails(
      'openspace.editor.highlight',
      { path: 'src/index.ts', ranges: [{ startLine: 20, endLine: 10 }] },
      'RANGE_INVALID',
    );
    await ctx.agent.fails(
      'openspace.editor.highlight',
      { path: 'src/index.ts', ranges: [{ startLine: 2, endLine: 2, startColumn: 500 }] },
      'RANGE_INVALID',
    );
  });

  it('needs the editor open (EDITOR_NOT_OPEN) and an existing file (FILE_NOT_FOUND)', async () => {
    const result = await ctx.agent.fails(
      'openspace.editor.highlight',
      { path: 'notes.txt', ranges: [{ startLine: 1, endLine: 1 }] },
      'EDITOR_NOT_OPEN',
    );
    expect(result.error).toMatch(/openspace\.editor\.open/);
    await ctx.agent.fails('openspace.editor.highlight', { path: 'nope.ts', ranges: [{ startLine: 1, endLine: 1 }] }, 'FILE_NOT_FOUND');
  });

  it('rejects an empty ranges list and a bad colour as INVALID_ARGUMENT naming the field', async () => {
    const empty = await ctx.agent.fails('openspace.editor.highlight', { path: 'src/index.ts', ranges: [] }, 'INVALID_ARGUMENT');
    expect(empty.error).toMatch(/ranges/);
    const colour = await ctx.agent.fails(
      'openspace.editor.highlight',
      { path: 'src/index.ts', ranges: [{ startLine: 1, endLine: 1 }], color: 'url(javascript:x)' },
      'INVALID_ARGUMENT',
    );
    expect(colour.error).toMatch(/color/);
  });

  it('clear_highlight needs an ID or a path', async () => {
    await ctx.agent.fails('openspace.editor.clear_highlight', {}, 'INVALID_ARGUMENT');
  });
});

describe('editor.scroll_to, read_file and close', () => {
  it('scrolls an open editor to centre a line (T6: open, then scroll, in sequence)', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
    const scrolled = await ctx.agent.ok('openspace.editor.scroll_to', { path: 'src/index.ts', line: 80 });
    expect(scrolled.visibleRange.startLine).toBeLessThanOrEqual(80);
    expect(scrolled.visibleRange.endLine).toBeGreaterThanOrEqual(80);
    expect(scrolled.visibleRange.startLine).toBeGreaterThan(50);
    await ctx.agent.fails('openspace.editor.scroll_to', { path: 'src/index.ts', line: 101 }, 'RANGE_INVALID');
    await ctx.agent.fails('openspace.editor.scroll_to', { path: 'notes.txt', line: 1 }, 'EDITOR_NOT_OPEN');
  });

  it("reads an editor's content, whole or a line range", async () => {
    const whole = await ctx.agent.ok('openspace.editor.read_file', { path: 'notes.txt' });
    expect(whole).toMatchObject({ content: 'alpha\nbeta\ngamma\n', totalLines: 3, isOpen: false, isDirty: false });
    const slice = await ctx.agent.ok('openspace.editor.read_file', { path: 'src/index.ts', startLine: 42, endLine: 43 });
    expect(slice.content).toBe(
      'export function step42(x: number): number { return x + 42; } // line 42\nexport function step43(x: number): number { return x + 43; } // line 43',
    );
    expect(slice).toMatchObject({ startLine: 42, endLine: 43, totalLines: 100 });
  });

  it('closes an editor, which then no longer shows in pane.list; closing again is EDITOR_NOT_OPEN', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'docs/guide.md' });
    await ctx.agent.ok('openspace.editor.close', { path: 'docs/guide.md' });
    const { panes } = await ctx.agent.ok('openspace.pane.list');
    expect(JSON.stringify(panes)).not.toContain('docs/guide.md');
    await ctx.agent.fails('openspace.editor.close', { path: 'docs/guide.md' }, 'EDITOR_NOT_OPEN');
  });

  it('closing an editor removes its highlights', async () => {
    await ctx.agent.ok('openspace.editor.open', { path: 'README.md' });
    await ctx.agent.ok('openspace.editor.highlight', {
      path: 'README.md',
      ranges: [{ startLine: 1, endLine: 1 }],
      highlightId: 'readme-hl',
    });
    await ctx.agent.ok('openspace.editor.close', { path: 'README.md' });
    await ctx.agent.fails('openspace.editor.clear_highlight', { highlightId: 'readme-hl' }, 'HIGHLIGHT_NOT_FOUND');
  });
});

describe('error messages name the argument the agent gave', () => {
  it('says "line" and "endLine", not internal names', async () => {
    const line = await ctx.agent.fails('openspace.editor.open', { path: 'src/auth.ts', line: 42 }, 'RANGE_INVALID');
    expect(line.error).toBe('line 42 is past the end of src/auth.ts, which has 41 lines.');
    const end = await ctx.agent.fails('openspace.editor.open', { path: 'src/auth.ts', line: 1, endLine: 99 }, 'RANGE_INVALID');
    expect(end.error).toMatch(/^endLine 99/);
  });
});
