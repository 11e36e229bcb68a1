import { expect, test } from '@playwright/test';
import { useTheia } from './theia-session.js';

/**
 * Issue 14 as a person sees it in Theia: the agent's proposal opens as a side-by-side diff with
 * Accept and Reject; the status bar says which agent is connected and what it is doing, and lists
 * its recent calls when clicked.
 */
const ide = useTheia();
const APP = 'code/src/app.ts';
const statusEntry = (page: import('@playwright/test').Page) => page.locator('#theia-statusBar .element', { hasText: 'MCP:' });

test('the status bar shows the connected agent and lists its recent calls', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.editor.open', { path: APP, line: 5 });
  await ide.agent.fails('openspace.editor.open', { path: 'code/src/missing.ts' }, 'FILE_NOT_FOUND');
  await expect(statusEntry(page)).toContainText('MCP: e2e-agent connected');
  await statusEntry(page).click();
  const picker = page.locator('.quick-input-widget');
  await expect(picker).toContainText('e2e-agent — connected');
  await expect(picker).toContainText('editor.open');
  await expect(picker).toContainText('FILE_NOT_FOUND');
  await page.screenshot({ path: 'reports/screenshots/agent-status.png' });
  await page.keyboard.press('Escape');
});

test('a proposal opens as a diff; Accept writes it and the diff closes', async () => {
  const { page } = ide.theia;
  // A terminal open in the bottom panel, as a person at work has one.
  await ide.agent.ok('openspace.terminal.create', { title: 'beside' });
  const original = (await ide.agent.ok('openspace.file.read', { path: APP })).content as string;
  const proposed = original.replace('const store = new TaskStore();', 'const store = new TaskStore(); // one store for the app');
  const asked = ide.agent.call('openspace.editor.propose_edit', {
    path: APP,
    newText: proposed,
    title: 'Say why there is one store',
    proposalId: 'e2e-1',
    timeoutMs: 20_000,
  });
  const tab = page.locator('.lm-TabBar-tab', { hasText: '(e2e-1)' });
  await expect(tab).toBeVisible({ timeout: 10_000 });
  await expect(page.locator('.monaco-diff-editor')).toBeVisible();
  await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines')).toContainText('one store for the app');
  // While the agent waits for the person, the status bar says so.
  await expect(statusEntry(page)).toContainText('editor.propose_edit');
  await page.screenshot({ path: 'reports/screenshots/proposal-diff.png' });
  // Only the diff's own toolbar offers the decision, not the terminal panel's.
  await expect(page.locator('[id="openspace.review.accept"]')).toHaveCount(1);
  await page.locator('[id="openspace.review.accept"]').click();
  const answer = await asked;
  expect(answer).toMatchObject({ success: true, status: 'accepted', added: 1, removed: 1 });
  await expect(tab).toHaveCount(0);
  expect((await ide.agent.ok('openspace.file.read', { path: APP })).content).toBe(proposed);
  await expect(statusEntry(page)).toContainText('MCP: e2e-agent connected');
});
