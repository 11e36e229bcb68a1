import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTheia } from './theia-session.js';
import { makeRepository } from '../../conformance/fixtures/git-repository.js';

/**
 * Issue 30 as a person sees it in Theia: the source-control view shows the repository the agent's
 * git tools work on. An agent's new file and its staging show there at once; the person stages one
 * of two changes from the editor's change markers, and git.status shows exactly that; the person
 * commits with the message typed in the view, and git.log has it.
 */
const ide = useTheia();
const NOTES = 'notes.txt';
const LINES = Array.from({ length: 16 }, (_, i) => `line ${i + 1}`);

test('the source-control view follows the agent, and the person stages one change from the gutter and commits', async () => {
  const { page, workspace } = ide.theia;
  writeFileSync(join(workspace, NOTES), `${LINES.join('\n')}\n`);
  const git = makeRepository(workspace);
  const changed = [...LINES];
  changed[1] = 'line 2, changed';
  changed[13] = 'line 14, changed';
  await ide.agent.ok('openspace.file.write', { path: NOTES, content: `${changed.join('\n')}\n` });

  await page.keyboard.press('Control+Shift+G');
  const view = page.locator('#scm-resource-widget');
  await expect(view).toContainText(NOTES, { timeout: 10_000 });
  await expect(page.locator('#theia-statusBar')).toContainText('main');

  // An agent's file, then its staging: the view follows each at once.
  await ide.agent.ok('openspace.file.write', { path: 'agent.txt', content: 'from the agent\n' });
  await expect(view).toContainText('agent.txt', { timeout: 5_000 });
  await ide.agent.ok('openspace.git.stage', { paths: ['agent.txt'] });
  await expect(view.locator('.scm-theia-header', { hasText: 'Staged Changes' })).toBeVisible({ timeout: 5_000 });

  // The person opens the file, clicks the first change's marker in the gutter and stages that change.
  await ide.agent.ok('openspace.editor.open', { path: NOTES, line: 2 });
  // Its tab says it is modified, as the explorer does.
  await expect(page.locator('.lm-TabBar-tab', { hasText: NOTES })).toContainText('M');
  const marker = page.locator('.monaco-editor .dirty-diff-glyph').first();
  await expect(marker).toBeVisible({ timeout: 10_000 });
  // Monaco takes a click on the marker's stripe only, which widens under the mouse (the folding controls are beside it).
  await marker.hover({ position: { x: 1, y: 5 } });
  const box = (await marker.boundingBox())!;
  await page.mouse.click(box.x + 1, box.y + box.height / 2);
  const peek = page.locator('.dirty-diff');
  await expect(peek).toBeVisible({ timeout: 5_000 });
  await page.screenshot({ path: 'reports/screenshots/git-change-peek.png' });
  await page.locator('.peekview-widget a.action-label[aria-label="Stage Change"]').click();
  await expect
    .poll(async () => (await ide.agent.ok('openspace.git.status')).staged, { timeout: 5_000 })
    .toEqual([
      { path: 'agent.txt', status: 'added', added: 1, removed: 0 },
      { path: NOTES, status: 'modified', added: 1, removed: 1 },
    ]);
  expect(git('diff', '--cached', '--', NOTES)).toContain('+line 2, changed');
  expect(git('diff', '--cached', '--', NOTES)).not.toContain('line 14, changed');

  // The person commits with the message typed in the view.
  await page.locator('textarea#theia-scm-input-message').fill('Stage one change from the gutter');
  await page.screenshot({ path: 'reports/screenshots/git-source-control.png' });
  await page.locator('button.theia-scm-action-button', { hasText: 'Commit' }).click();
  await expect
    .poll(async () => (await ide.agent.ok('openspace.git.log', { count: 1 })).commits[0]?.summary, { timeout: 5_000 })
    .toBe('Stage one change from the gutter');
  await expect(view.locator('.scm-theia-header', { hasText: 'Staged Changes' })).toHaveCount(0, { timeout: 5_000 });
  await expect(view).toContainText(NOTES);
  // The person's two git actions are theirs in events.query; the agent's own stage of agent.txt is not there.
  const events = (await ide.agent.ok('openspace.events.query', { types: ['git.changed'] })).events as { tool: string; paths?: string[] }[];
  expect(events.map(({ tool, paths }) => ({ tool, paths }))).toEqual([
    { tool: 'openspace.git.stage', paths: [NOTES] },
    { tool: 'openspace.git.commit', paths: undefined },
  ]);
});

test("the person searches the workspace in the search view and finds the agent's text", async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.file.write', { path: 'found/by-search.txt', content: 'a needle in the haystack\n' });
  await page.keyboard.press('Control+Shift+F');
  const input = page.locator('#search-input-field');
  await expect(input).toBeVisible({ timeout: 5_000 });
  await input.fill('needle in the');
  await input.press('Enter');
  const results = page.locator('#search-in-workspace .resultContainer, #search-in-workspace .theia-TreeNode');
  await expect(page.locator('#search-in-workspace')).toContainText('by-search.txt', { timeout: 10_000 });
  await expect(results.filter({ hasText: 'needle' }).first()).toBeVisible();
  await page.screenshot({ path: 'reports/screenshots/search-view.png' });
});
