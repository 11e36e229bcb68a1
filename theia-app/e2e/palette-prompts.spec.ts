import { expect, test, type Page } from '@playwright/test';
import { useTheia } from './theia-session.js';

/**
 * AC-3.2.1: a command that takes arguments, run from the command palette, asks for them — a quick
 * pick of what the IDE knows, an input box for text and numbers — and Escape cancels it quietly.
 */

const shot = (page: Page, name: string) => page.screenshot({ path: `reports/theia-${name}.png` });

const ide = useTheia();

const quickInput = (page: Page) => page.locator('.quick-input-widget');
const rows = (page: Page) => quickInput(page).locator('.quick-input-list .monaco-list-row');
const toasts = (page: Page, text: string) => page.locator('.theia-notification-toasts .theia-notification-message', { hasText: text });
const terminalTab = (page: Page, title: string) =>
  page.locator('#theia-bottom-content-panel .lm-TabBar-tabLabel', { hasText: new RegExp(`^${title}$`) });
const terminalTitles = async () => (await ide.agent.ok('openspace.terminal.list')).terminals.map((t: { title: string }) => t.title);

/** Run a command from the command palette (F1) by its label. */
async function palette(page: Page, label: string): Promise<void> {
  await page
    .locator('#theia-app-shell')
    .click({ position: { x: 5, y: 5 } })
    .catch(() => undefined);
  await page.keyboard.press('F1');
  const input = quickInput(page).locator('input');
  await expect(input).toBeVisible();
  await input.fill(`>${label}`);
  await expect(rows(page).first()).toContainText(label);
  await page.keyboard.press('Enter');
}

/** Run "OpenSpace: <title>" from the palette and wait for its first prompt, titled after it. */
async function runFromPalette(page: Page, title: string, prompted = true): Promise<void> {
  await palette(page, `OpenSpace: ${title}`);
  if (prompted) await expect(quickInput(page).locator('.quick-input-title')).toHaveText(`OpenSpace: ${title}`);
}

test('"OpenSpace: Close Terminal" offers the terminals and closes the chosen one', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.terminal.create', { title: 'alpha' });
  await ide.agent.ok('openspace.terminal.create', { title: 'beta' });
  await expect(terminalTab(page, 'beta')).toBeVisible();
  await runFromPalette(page, 'Close Terminal');
  await expect(quickInput(page).locator('input')).toHaveAttribute('placeholder', 'Choose a terminal');
  await expect(rows(page).filter({ hasText: /^alpha/ })).toHaveCount(1);
  await expect(rows(page).filter({ hasText: /^beta/ })).toHaveCount(1);
  await shot(page, 'palette-close-terminal');
  await rows(page).filter({ hasText: /^beta/ }).click();
  await expect(toasts(page, 'OpenSpace: Close Terminal — done.')).toBeVisible();
  await expect(terminalTab(page, 'beta')).toHaveCount(0);
  await expect(terminalTab(page, 'alpha')).toBeVisible();
  const titles = await terminalTitles();
  expect(titles).toContain('alpha');
  expect(titles).not.toContain('beta');
});

test('"OpenSpace: Open Editor" takes a file and a line: the editor shows the file with the cursor on that line', async () => {
  const { page } = ide.theia;
  await runFromPalette(page, 'Open Editor');
  const input = quickInput(page).locator('input');
  await expect(input).toHaveAttribute('placeholder', 'Choose a file or type its path');
  await input.fill('auth');
  await expect(rows(page).first()).toContainText('auth.ts');
  await page.keyboard.press('Enter');
  // The line: an input box that refuses what is not a line number, and says why.
  await expect(quickInput(page).locator('.quick-input-message')).toContainText('Line');
  await input.fill('seven');
  await expect(quickInput(page).locator('.quick-input-message')).toHaveText('Enter a number.');
  await page.keyboard.press('Enter');
  await expect(quickInput(page)).toBeVisible();
  await input.fill('7');
  await page.keyboard.press('Enter');
  await expect(quickInput(page)).toBeHidden();
  const editor = page
    .locator('.theia-editor', { has: page.locator('.monaco-editor') })
    .filter({ visible: true })
    .and(page.locator('[id*="auth.ts"]'));
  await expect(editor.locator('.line-numbers.active-line-number')).toHaveText('7');
  await expect(page.locator('.lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel', { hasText: /^auth\.ts$/ })).toBeVisible();
  expect((await ide.agent.ok('openspace.pane.list')).activeContentId).toBe('src/auth.ts');
  await shot(page, 'palette-open-editor-line-7');
});

test('Escape at the first prompt runs nothing and shows no notification', async () => {
  const { page } = ide.theia;
  await palette(page, 'Clear All Notifications');
  await expect(page.locator('.theia-notification-toasts .theia-notification-message')).toHaveCount(0);
  const before = await terminalTitles();
  for (const title of ['Close Terminal', 'Open Editor']) {
    await runFromPalette(page, title);
    await page.keyboard.press('Escape');
    await expect(quickInput(page)).toBeHidden();
  }
  // A command run next reports as usual; nothing was reported before it.
  await runFromPalette(page, 'List Terminals', false);
  await expect(toasts(page, 'OpenSpace: List Terminals — done.')).toBeVisible();
  await expect(toasts(page, 'OpenSpace: Close Terminal')).toHaveCount(0);
  await expect(toasts(page, 'OpenSpace: Open Editor')).toHaveCount(0);
  expect(await terminalTitles()).toEqual(before);
});

test('"OpenSpace: Write File" runs where the agent\'s file calls run (the backend): the file is written and its open editor shows it', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.file.write', { path: 'palette/note.txt', content: 'before\n' });
  await ide.agent.ok('openspace.editor.open', { path: 'palette/note.txt' });
  await runFromPalette(page, 'Write File');
  const input = quickInput(page).locator('input');
  await input.fill('palette/note.txt');
  await expect(rows(page).first()).toContainText('note.txt');
  await page.keyboard.press('Enter');
  await expect(quickInput(page).locator('.quick-input-message')).toContainText('Content');
  await input.fill('written from the palette');
  await page.keyboard.press('Enter');
  await expect(toasts(page, 'OpenSpace: Write File — done.')).toBeVisible();
  expect((await ide.agent.ok('openspace.file.read', { path: 'palette/note.txt' })).content).toBe('written from the palette');
  const editor = page
    .locator('.theia-editor', { has: page.locator('.monaco-editor') })
    .filter({ visible: true })
    .and(page.locator('[id*="note.txt"]'));
  await expect(editor.locator('.view-lines')).toHaveText('written from the palette');
});
