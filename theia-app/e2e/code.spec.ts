import { expect, test, type Page } from '@playwright/test';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useTheia } from './theia-session.js';

const ide = useTheia();
const APP = 'code/src/app.ts';
const STORE = 'code/src/task-store.ts';
/** The fixture's two errors, as a person reads them in the Problems view (message, then line and column). */
const TYPE_ERROR = "Type 'number' is not assignable to type 'string'. (10, 14)";
const MISSING_NAME = "Cannot find name 'toUpper'. (12, 34)";

const editor = (page: Page, file: string) => page.locator(`.theia-editor[id*="/${file}"]`).first();
const squiggles = (page: Page, file: string) => editor(page, file).locator('.squiggly-error');
const problems = (page: Page) => page.locator('#problems .markerNode');

/** Where a column of a line shown in the editor is on the page (the text is in a monospace font). */
async function pointAt(page: Page, file: string, lineText: string, column: number): Promise<{ x: number; y: number }> {
  const line = editor(page, file).locator('.view-line', { hasText: lineText }).first();
  const box = (await line.boundingBox())!;
  const charWidth = await line.evaluate((el) => {
    const span = el.querySelector('span')!;
    return span.getBoundingClientRect().width / span.textContent!.length;
  });
  return { x: box.x + (column - 0.5) * charWidth, y: box.y + box.height / 2 };
}

test('a person opens a file with errors: coloured as TypeScript, squiggles under both, both in the Problems view, as the agent lists them', async () => {
  const { page } = ide.theia;
  // The shell takes keys once it has loaded.
  await expect(async () => {
    await page.keyboard.press('ControlOrMeta+p');
    await expect(page.locator('.quick-input-widget')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.keyboard.type('app.ts');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'app.ts' }).first().waitFor();
  await page.keyboard.press('Enter');
  // The first answer waits for the server to start and load the project.
  await expect(squiggles(page, APP)).toHaveCount(2, { timeout: 30_000 });
  await expect(page.locator('#theia-statusBar')).toContainText('TypeScript');
  // Coloured as TypeScript: a keyword, a variable and a class name each in a colour of its own.
  const colours = await editor(page, APP)
    .locator('.view-line', { hasText: 'const store = new TaskStore();' })
    .locator('span > span')
    .evaluateAll((spans) => Object.fromEntries(spans.map((s) => [s.textContent!.trim(), getComputedStyle(s).color])));
  expect(new Set([colours['const'], colours['store'], colours['TaskStore']]).size).toBe(3);
  // The status bar counts them; a click on the count opens the Problems view.
  await expect(page.locator('#status-bar-problem-marker-status')).toHaveAttribute('aria-label', /2 Errors/);
  await page.locator('#status-bar-problem-marker-status').click();
  await expect(problems(page)).toHaveCount(2);
  await expect(problems(page).nth(0)).toHaveAttribute('title', TYPE_ERROR);
  await expect(problems(page).nth(1)).toHaveAttribute('title', MISSING_NAME);
  const listed = await ide.agent.ok('openspace.diagnostics.list', { path: APP });
  expect(listed.diagnostics).toMatchObject([
    { range: { startLine: 10, startColumn: 14 }, code: 2322 },
    { range: { startLine: 12, startColumn: 34 }, code: 2304 },
  ]);
  await page.screenshot({ path: 'reports/screenshots/code-problems.png' });
});

test('hovering a method shows its type and its doc comment', async () => {
  const { page } = ide.theia;
  await page.mouse.move(...(Object.values(await pointAt(page, APP, "store.add('Write the spec');", 8)) as [number, number]));
  const hover = page.locator('.monaco-hover:not(.hidden)');
  await expect(hover).toContainText('(method) TaskStore.add(title: string): Task');
  await expect(hover).toContainText('Add a task; returns it with its new id.');
  // Out of the editor, it goes (it would cover the line above).
  await page.mouse.move(700, page.viewportSize()!.height - 5);
  await expect(hover).toHaveCount(0);
});

test('go to definition (F12) opens the class in its own file, at its name', async () => {
  const { page } = ide.theia;
  const { x, y } = await pointAt(page, APP, 'const store = new TaskStore();', 20);
  await page.mouse.click(x, y);
  await page.keyboard.press('F12');
  await expect(page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current')).toContainText('task-store.ts');
  await expect(page.locator('#theia-statusBar')).toContainText('Ln 9, Col 14');
  await expect(editor(page, STORE).locator('.view-line', { hasText: 'export class TaskStore' })).toBeVisible();
});

test("the agent's fix through file.patch takes the squiggles and the Problems entries away", async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.editor.open', { path: APP });
  const { version } = await ide.agent.ok('openspace.file.read', { path: APP });
  await ide.agent.ok('openspace.file.patch', {
    path: APP,
    baseVersion: version,
    operations: [
      { type: 'replace_text', oldText: 'summary: string = store.pending().length;', newText: 'summary: number = store.pending().length;' },
      { type: 'replace_text', oldText: 'lines.map(toUpper)', newText: 'lines.map((line) => line.toUpperCase())' },
    ],
  });
  await expect(squiggles(page, APP)).toHaveCount(0);
  await expect(problems(page)).toHaveCount(0);
  await expect(page.locator('#problems .noMarkers')).toBeVisible();
  expect((await ide.agent.ok('openspace.diagnostics.list', { path: APP })).diagnostics).toEqual([]);
});

test('a change on disk by another program counts: a file the server read, closed since, is read again', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.editor.close', { path: STORE });
  const file = join(ide.theia.workspace, STORE);
  const saved = await readFile(file, 'utf8');
  await writeFile(file, saved.replace('  pending(): Task[] {', '  open(): Task[] {'));
  const missing = "Property 'pending' does not exist on type 'TaskStore'.";
  await expect
    .poll(() => problems(page).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('title'))))
    .toEqual([`${missing} (10, 38)`, `${missing} (11, 28)`, "Parameter 'line' implicitly has an 'any' type. (12, 35)"]);
  await writeFile(file, saved);
  await expect(problems(page)).toHaveCount(0);
});

test("completion offers the class's methods; an unsaved mistake is squiggled, and the agent sees it too", async () => {
  const { page } = ide.theia;
  const { x, y } = await pointAt(page, APP, 'export const keyLength = apiKey.length;', 40);
  await page.mouse.click(x, y);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('store.');
  const suggestions = page.locator('.suggest-widget .monaco-list-row');
  await expect(suggestions.filter({ hasText: 'pending' })).toBeVisible();
  await expect(suggestions.filter({ hasText: 'complete' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.type('missing();');
  await expect(squiggles(page, APP)).toHaveCount(1);
  await expect(problems(page)).toHaveCount(1);
  await expect(problems(page)).toHaveAttribute('title', "Property 'missing' does not exist on type 'TaskStore'. (14, 7)");
  const listed = await ide.agent.ok('openspace.diagnostics.list', { path: APP });
  expect(listed.diagnostics).toMatchObject([{ range: { startLine: 14, startColumn: 7 }, code: 2339 }]);
  await page.screenshot({ path: 'reports/screenshots/code-unsaved.png' });
});
