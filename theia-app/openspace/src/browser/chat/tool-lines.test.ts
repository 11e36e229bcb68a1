import { describe, expect, it } from 'vitest';
import { TOOLS, TOOLS_ENABLE } from '../../../../../src/families/index.js';
import type { ToolPart } from '../../common/chat-protocol.js';
import { describePermission, describeToolCall, describeToolRequest, summarizeTurn, toolDisplayName } from './tool-lines.js';

const time = { start: 1, end: 2 };

function call(tool: string, input: Record<string, unknown>, status: ToolPart['state']['status'] = 'completed', error = 'boom'): ToolPart {
  const state: ToolPart['state'] =
    status === 'completed'
      ? { status, input, output: '{"success":true}', title: '', metadata: {}, time }
      : status === 'error'
        ? { status, input, error, time }
        : status === 'running'
          ? { status, input, time }
          : { status, input, raw: '' };
  return { id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'tool', callID: 'call_1', tool, state };
}

describe('a tool call as the line a person reads', () => {
  it.each([
    ['openspace_openspace_editor_open', { path: 'src/auth.ts', line: 42 }, 'opened src/auth.ts:42', 'src/auth.ts', 42],
    ['openspace_openspace_editor_open', { path: 'a.ts' }, 'opened a.ts', 'a.ts', undefined],
    ['openspace_openspace_editor_read_file', { path: 'src/a.ts' }, 'read src/a.ts', 'src/a.ts', undefined],
    [
      'openspace_openspace_editor_highlight',
      { path: 'src/a.ts', ranges: [{ startLine: 3, endLine: 7 }] },
      'highlighted src/a.ts:3-7',
      'src/a.ts',
      3,
    ],
    ['openspace_openspace_editor_highlight', { path: 'a.ts', startLine: 3, endLine: 7 }, 'highlighted a.ts:3-7', 'a.ts', 3],
    ['openspace_openspace_editor_scroll_to', { path: 'a.ts', line: 9 }, 'scrolled to a.ts:9', 'a.ts', 9],
    [
      'openspace_openspace_editor_replace_range',
      { path: 'a.ts', startLine: 2, endLine: 4, newText: '' },
      'replaced lines of a.ts:2-4',
      'a.ts',
      2,
    ],
    ['openspace_openspace_editor_propose_edit', { path: 'src/a.ts', newText: 'x' }, 'proposed an edit to src/a.ts', 'src/a.ts', undefined],
    [
      'openspace_openspace_editor_propose_edit',
      {
        edits: [
          { path: 'a.ts', newText: 'x' },
          { path: 'b.ts', newText: 'y' },
        ],
      },
      'proposed edits to 2 files',
      undefined,
      undefined,
    ],
    ['openspace_openspace_editor_close', { path: 'a.ts' }, 'closed a.ts', 'a.ts', undefined],
    ['openspace_openspace_file_write', { path: 'notes.md', content: '# hi' }, 'wrote notes.md', 'notes.md', undefined],
    ['openspace_openspace_file_read', { path: 'src/a.ts', startLine: 10 }, 'read src/a.ts:10', 'src/a.ts', 10],
    ['openspace_openspace_file_patch', { path: 'a.ts', baseVersion: 'v1', operations: [] }, 'patched a.ts', 'a.ts', undefined],
    ['openspace_openspace_file_list', { path: 'src' }, 'listed files in src', undefined, undefined],
    ['openspace_openspace_file_search', { query: 'TODO' }, 'searched for "TODO"', undefined, undefined],
    ['openspace_openspace_terminal_run', { command: 'npm test' }, 'ran npm test', undefined, undefined],
    ['openspace_openspace_terminal_send', { terminalId: 't1', text: 'ls -la' }, 'sent "ls -la" to a terminal', undefined, undefined],
    ['openspace_openspace_terminal_create', {}, 'opened a terminal', undefined, undefined],
    ['openspace_openspace_pane_open', { type: 'editor', contentId: 'a.ts' }, 'opened an editor pane', undefined, undefined],
    ['openspace_openspace_whiteboard_open', { whiteboardId: 'plan' }, 'opened a whiteboard', undefined, undefined],
    ['openspace_openspace_whiteboard_camera_fit', { whiteboardId: 'plan' }, 'fitted the whiteboard view', undefined, undefined],
    ['openspace_openspace_presentation_navigate', { deckPath: 'deck.md', slideIndex: 2 }, 'went to slide 3', undefined, undefined],
    ['openspace_openspace_context_get', {}, 'checked what is open in the IDE', undefined, undefined],
    ['openspace_openspace_diagnostics_list', { path: 'a.ts' }, 'checked problems in a.ts', 'a.ts', undefined],
    ['openspace_openspace_code_definition', { symbol: 'login' }, 'looked up the definition of "login"', undefined, undefined],
    // Any MCP server name: the hub may be registered as something else than "openspace".
    ['hub_openspace_editor_open', { path: 'b.ts', line: 1 }, 'opened b.ts:1', 'b.ts', 1],
    // OpenCode's own tools.
    ['bash', { command: 'npm test', description: 'Run the tests' }, 'ran npm test', undefined, undefined],
    ['edit', { filePath: 'src/a.ts', oldString: 'a', newString: 'b' }, 'edited src/a.ts', 'src/a.ts', undefined],
    ['write', { filePath: 'src/a.ts', content: '' }, 'wrote src/a.ts', 'src/a.ts', undefined],
    ['read', { filePath: 'src/a.ts' }, 'read src/a.ts', 'src/a.ts', undefined],
    ['grep', { pattern: 'foo' }, 'searched for "foo"', undefined, undefined],
    ['glob', { pattern: '**/*.ts' }, 'found files matching "**/*.ts"', undefined, undefined],
    ['webfetch', { url: 'https://example.com', format: 'markdown' }, 'fetched https://example.com', undefined, undefined],
    ['task', { description: 'Find the bug', prompt: '…', subagent_type: 'general' }, 'started a task: Find the bug', undefined, undefined],
    ['todowrite', { todos: [] }, 'updated the to-do list', undefined, undefined],
    // Unknown tools: the name in words and the first arguments.
    ['github_create_issue', { title: 'Crash', labels: ['bug'] }, 'github create issue (title: "Crash")', undefined, undefined],
    ['openspace_openspace_future_thing', { path: 'a.ts' }, 'future thing (path: "a.ts")', undefined, undefined],
  ])('%s %j → %s', (tool, input, text, path, line) => {
    expect(describeToolCall(call(tool, input))).toEqual({
      text,
      status: 'completed',
      ...(path ? { path } : {}),
      ...(line ? { line } : {}),
    });
  });

  it('says what a call is doing while it runs, and what it could not do when it failed', () => {
    const open = { path: 'a.ts', line: 2 };
    expect(describeToolCall(call('openspace_openspace_editor_open', open, 'running'))).toMatchObject({
      text: 'opening a.ts:2…',
      status: 'running',
      path: 'a.ts',
    });
    expect(describeToolCall(call('bash', { command: 'make' }, 'running')).text).toBe('running make…');
    expect(describeToolCall(call('openspace_openspace_editor_open', open, 'error', 'File not found: a.ts'))).toEqual({
      text: "couldn't open a.ts:2",
      status: 'error',
      error: 'File not found: a.ts',
      path: 'a.ts',
      line: 2,
    });
  });

  it('names the tool of a pending call, whose input has not arrived', () => {
    expect(describeToolCall(call('openspace_openspace_editor_open', {}, 'pending'))).toEqual({
      text: 'calling openspace.editor.open…',
      status: 'pending',
    });
    expect(describeToolCall(call('bash', {}, 'pending')).text).toBe('calling bash…');
  });

  it('shows a path under the workspace root relative to it, and keeps a long command on one short line', () => {
    const edit = call('edit', { filePath: '/work/app/src/a.ts' });
    expect(describeToolCall(edit, { root: '/work/app' })).toMatchObject({ text: 'edited src/a.ts', path: 'src/a.ts' });
    expect(describeToolCall(edit, { root: '/elsewhere' })).toMatchObject({ text: 'edited /work/app/src/a.ts', path: '/work/app/src/a.ts' });
    const long = describeToolCall(call('bash', { command: `echo one\necho ${'x'.repeat(100)}` })).text;
    expect(long).toMatch(/^ran echo one ⏎ echo x+…$/);
    expect(long.length).toBeLessThan(70);
  });

  it("knows every tool of the hub's catalog by its underscore name", () => {
    for (const tool of [TOOLS_ENABLE, ...TOOLS]) {
      const underscored = `openspace_${tool.name.replace(/\./g, '_')}`;
      expect(toolDisplayName(underscored)).toBe(tool.name);
      expect(describeToolCall(call(underscored, { path: 'a.ts' })).text, tool.name).not.toMatch(/\(|^openspace/);
    }
  });

  it('says which families an agent enabled', () => {
    expect(describeToolCall(call('openspace_openspace_tools_enable', { families: ['whiteboard', 'pane'] })).text).toBe(
      'enabled whiteboard, pane tools',
    );
  });

  it('reads a permission name the way the catalog spells it', () => {
    expect(toolDisplayName('openspace_openspace_file_write')).toBe('openspace.file.write');
    expect(toolDisplayName('openspace_openspace_editor_read_file')).toBe('openspace.editor.read_file');
    expect(toolDisplayName('bash')).toBe('bash');
    expect(describeToolRequest('openspace_openspace_file_write', { path: 'notes.md', content: '' })).toEqual({
      text: 'write notes.md',
      path: 'notes.md',
    });
    expect(describeToolRequest('bash', { command: 'rm -rf build' }).text).toBe('run rm -rf build');
  });
});

describe('a permission request in words (the card and the notification)', () => {
  it.each([
    [{ permission: 'openspace_openspace_file_write', patterns: ['*'] }, 'use openspace.file.write'],
    [{ permission: 'bash', patterns: ['git push origin main'] }, 'run a command: git push origin main'],
    [{ permission: 'edit', patterns: ['src/a.ts', 'src/b.ts'] }, 'change files: src/a.ts, src/b.ts'],
    [{ permission: 'toString', patterns: [] }, 'use toString'],
  ])('%o → %s', (request, text) => {
    expect(describePermission(request)).toBe(text);
  });
});

describe("a turn's summary", () => {
  it('lists the files changed, the files read (a file changed is not read too), the commands run; unfinished calls are left out', () => {
    const tools = [
      call('openspace_openspace_editor_open', { path: 'src/a.ts', line: 3 }),
      call('read', { filePath: '/w/src/b.ts' }),
      call('mcp__openspace__openspace_file_write', { path: 'src/a.ts', content: 'x' }),
      call('bash', { command: 'npm test' }),
      call('openspace_openspace_terminal_run', { command: 'git status' }),
      call('openspace_openspace_file_write', { path: 'src/c.ts', content: 'x' }, 'error'),
      call('openspace_openspace_file_read', { path: 'src/d.ts' }, 'running'),
      call('openspace_openspace_pane_list', {}),
    ];
    expect(summarizeTurn(tools, { root: '/w' })).toEqual({
      read: [{ path: 'src/b.ts' }],
      changed: [{ path: 'src/a.ts' }],
      ran: ['npm test', 'git status'],
      review: [],
    });
    expect(summarizeTurn([call('openspace_openspace_pane_list', {})])).toEqual({ read: [], changed: [], ran: [], review: [] });
  });

  it("gathers what the turn's edits say for review: OpenCode's diffs per file in order, an ACP agent's files as they were", () => {
    const opencodeEdit = (patch: string) => {
      const part = call('edit', { filePath: '/w/src/a.ts', oldString: 'a', newString: 'b' });
      return {
        ...part,
        state: { ...part.state, metadata: { filediff: { file: '/w/src/a.ts', patch, additions: 1, deletions: 1 } } },
      } as ToolPart;
    };
    const acp = call('edit', { file_path: '/w/src/c.ts' });
    const acpEdit = { ...acp, state: { ...acp.state, metadata: { changes: [{ path: 'src/c.ts', before: 'c\n' }] } } } as ToolPart;
    expect(summarizeTurn([opencodeEdit('first'), acpEdit, opencodeEdit('second')], { root: '/w' })).toMatchObject({
      changed: [{ path: 'src/a.ts' }, { path: 'src/c.ts' }],
      review: [
        { path: 'src/a.ts', patches: ['first', 'second'] },
        { path: 'src/c.ts', before: 'c\n' },
      ],
    });
  });
});
