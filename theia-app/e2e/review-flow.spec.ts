import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTheia } from './theia-session.js';
import { makeRepository } from '../../conformance/fixtures/git-repository.js';

/**
 * Issue 30's whole flow as a person lives it: an agent's change set across three files, the person
 * accepting part of it in the diffs, the agent staging and committing with the person's yes, and the
 * source-control view showing each step.
 */
const ide = useTheia();
const FILES = { a: 'flow/a.txt', b: 'flow/b.txt', c: 'flow/c.txt' };

test('a change set accepted in part, then staged and committed with the person’s yes, seen in the source-control view', async () => {
  const { page, workspace } = ide.theia;
  mkdirSync(join(workspace, 'flow'), { recursive: true });
  writeFileSync(join(workspace, FILES.a), 'one\ntwo\nthree\nfour\nfive\nsix\n');
  writeFileSync(join(workspace, FILES.b), 'alpha\n');
  writeFileSync(join(workspace, FILES.c), 'gamma\n');
  const git = makeRepository(workspace);

  await page.keyboard.press('Control+Shift+G');
  const view = page.locator('#scm-resource-widget');
  await expect(page.locator('#theia-statusBar')).toContainText('main', { timeout: 10_000 });

  // The agent proposes; the person takes the first hunk of a.txt, not its second, and all of b.txt; c.txt they reject.
  const asked = ide.agent.call('openspace.editor.propose_edit', {
    proposalId: 'flow',
    title: 'Shout',
    edits: [
      { path: FILES.a, newText: 'one\nTWO\nthree\nfour\nfive\nSIX\n' },
      { path: FILES.b, newText: 'ALPHA\n' },
      { path: FILES.c, newText: 'GAMMA\n' },
    ],
    timeoutMs: 60_000,
  });
  const tab = (name: string) => page.locator('.lm-TabBar-tab', { hasText: `${name} ↔ proposed (flow)` });
  await tab('a.txt').click({ timeout: 10_000 });
  const bars = page.locator('.openspace-hunk-bar:visible');
  await expect(bars).toHaveCount(2);
  await bars.nth(0).locator('.openspace-hunk-accept').click();
  await bars.nth(1).locator('.openspace-hunk-reject').click();
  await tab('b.txt').click();
  await page.locator('[id="openspace.review.accept"]').click();
  await tab('c.txt').click();
  await page.locator('[id="openspace.review.reject"]').click();
  const answer = await asked;
  expect(answer).toMatchObject({ success: true, status: 'partial' });

  // The source-control view shows the two files written, and not the one rejected.
  await expect(view).toContainText('a.txt', { timeout: 5_000 });
  await expect(view).toContainText('b.txt');
  await expect(view).not.toContainText('c.txt');
  const status = await ide.agent.ok('openspace.git.status');
  expect(status.unstaged).toEqual([
    { path: FILES.a, status: 'modified', added: 1, removed: 1 },
    { path: FILES.b, status: 'modified', added: 1, removed: 1 },
  ]);

  // The agent stages both and commits; the person reads the staged diff in the question and says yes.
  await ide.agent.ok('openspace.git.stage', { paths: [FILES.a, FILES.b] });
  await expect(view.locator('.scm-theia-header', { hasText: 'Staged Changes' })).toBeVisible({ timeout: 5_000 });
  const committed = ide.agent.call('openspace.git.commit', { message: 'Shout two and alpha' });
  const dialog = page.locator('.dialogBlock', { hasText: 'OpenSpace' }).filter({ has: page.getByRole('button', { name: 'Commit' }) });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog).toContainText('Shout two and alpha');
  await expect(dialog).toContainText('+TWO');
  await page.screenshot({ path: 'reports/screenshots/flow-commit-question.png' });
  await dialog.getByRole('button', { name: 'Commit' }).click();
  expect(await committed).toMatchObject({ success: true });

  // One commit with exactly the accepted hunks; the view has nothing left to show.
  expect(git('show', '--format=%s', '--stat', 'HEAD')).toMatch(/^Shout two and alpha\n/);
  expect(git('show', 'HEAD:flow/a.txt')).toBe('one\nTWO\nthree\nfour\nfive\nsix\n');
  expect(git('show', 'HEAD:flow/b.txt')).toBe('ALPHA\n');
  expect(git('show', 'HEAD:flow/c.txt')).toBe('gamma\n');
  await expect(view.locator('.scm-theia-header', { hasText: 'Staged Changes' })).toHaveCount(0, { timeout: 5_000 });
  await expect(view).not.toContainText('a.txt');
  await page.screenshot({ path: 'reports/screenshots/flow-committed.png' });
});
