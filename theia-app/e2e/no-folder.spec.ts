import { expect, test } from '@playwright/test';
import { useTheia } from './theia-session.js';

/**
 * Theia started with no folder open: the tools that need the workspace answer NO_WORKSPACE with what
 * to do (not INTERNAL), and the ones that do not still work.
 */

const ide = useTheia({ noFolder: true });

test('tools that need the workspace answer NO_WORKSPACE, saying to open a folder', async () => {
  const calls: [string, Record<string, unknown>][] = [
    ['openspace.file.read', { path: 'README.md' }],
    ['openspace.file.write', { path: 'new.txt', content: 'x\n' }],
    ['openspace.file.list', {}],
    ['openspace.file.search', { query: 'function' }],
    ['openspace.editor.open', { path: 'README.md' }],
    ['openspace.pane.open', { type: 'editor', contentId: 'README.md' }],
    ['openspace.terminal.create', { title: 'no-folder' }],
  ];
  for (const [tool, args] of calls) {
    const result = await ide.agent.call(tool, args);
    expect(result, tool).toMatchObject({ success: false, code: 'NO_WORKSPACE' });
    expect(result.error, tool).toMatch(/Open Folder/);
  }
});

test('tools that need no workspace still work', async () => {
  expect((await ide.agent.ok('openspace.pane.list')).panes).toBeInstanceOf(Array);
  expect((await ide.agent.ok('openspace.terminal.list')).terminals).toBeInstanceOf(Array);
});
