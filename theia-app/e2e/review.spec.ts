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

test('a change set across three files: the person rejects one hunk with a click, accepts the rest, and the files hold exactly that', async () => {
  const { page } = ide.theia;
  const files = { a: 'review-e2e/a.txt', b: 'review-e2e/b.txt', c: 'review-e2e/c.txt' };
  await ide.agent.ok('openspace.file.write', { path: files.a, content: 'one\ntwo\nthree\nfour\nfive\nsix\n' });
  await ide.agent.ok('openspace.file.write', { path: files.b, content: 'alpha\n' });
  await ide.agent.ok('openspace.file.write', { path: files.c, content: 'gamma\n' });
  const asked = ide.agent.call('openspace.editor.propose_edit', {
    proposalId: 'e2e-set',
    title: 'Shout a few words',
    edits: [
      { path: files.a, newText: 'one\nTWO\nthree\nfour\nfive\nSIX\n' },
      { path: files.b, newText: 'ALPHA\n' },
      { path: files.c, newText: 'GAMMA\n' },
    ],
    timeoutMs: 30_000,
  });
  // Each file has its diff; a.txt's has a bar above each of its two hunks.
  for (const name of ['a.txt', 'b.txt', 'c.txt']) {
    await expect(page.locator('.lm-TabBar-tab', { hasText: `${name} ↔ proposed (e2e-set)` })).toBeVisible({ timeout: 10_000 });
  }
  await page.locator('.lm-TabBar-tab', { hasText: 'a.txt ↔ proposed (e2e-set)' }).click();
  const bars = page.locator('.openspace-hunk-bar:visible');
  await expect(bars).toHaveCount(2);
  await expect(bars.first()).toContainText('Change 1: +1 −1');
  await page.screenshot({ path: 'reports/screenshots/change-set-review.png' });
  // Reject the second hunk (SIX): it leaves the proposed side; accept the first.
  await bars.nth(1).locator('.openspace-hunk-reject').click();
  await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines:visible')).not.toContainText('SIX');
  await expect(bars).toHaveCount(1);
  await bars.first().locator('.openspace-hunk-accept').click();
  // The other two files: accepted whole from their toolbar.
  for (const name of ['b.txt', 'c.txt']) {
    await page.locator('.lm-TabBar-tab', { hasText: `${name} ↔ proposed (e2e-set)` }).click();
    await page.locator('[id="openspace.review.accept"]').click();
  }
  const answer = await asked;
  expect(answer).toMatchObject({ success: true, status: 'partial' });
  expect((answer.files as { hunks: { decision: string }[] }[]).map((f) => f.hunks.map((h) => h.decision))).toEqual([
    ['accepted', 'rejected'],
    ['accepted'],
    ['accepted'],
  ]);
  expect((await ide.agent.ok('openspace.file.read', { path: files.a })).content).toBe('one\nTWO\nthree\nfour\nfive\nsix\n');
  expect((await ide.agent.ok('openspace.file.read', { path: files.b })).content).toBe('ALPHA\n');
  expect((await ide.agent.ok('openspace.file.read', { path: files.c })).content).toBe('GAMMA\n');
  await expect(page.locator('.lm-TabBar-tab', { hasText: '(e2e-set)' })).toHaveCount(0);
});
