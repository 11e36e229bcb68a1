import { expect, test, type Page } from '@playwright/test';
import { useTheia } from './theia-session.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `reports/theia-${name}.png` });

const ide = useTheia();

/** The Monaco editor showing a file: the editor whose tab is titled `title`. */
function editorFor(page: Page, title: string) {
  return page
    .locator('.theia-editor', { has: page.locator('.monaco-editor') })
    .filter({ visible: true })
    .and(page.locator(`[id*="${title}"]`));
}

test('opens a file at line 42: the tab shows, line 42 is visible and holds the cursor', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.editor.open', { path: 'src/index.ts', line: 42 });
  await expect(page.locator('.lm-TabBar-tab .lm-TabBar-tabLabel', { hasText: /^index\.ts$/ })).toBeVisible();
  const editor = editorFor(page, 'index.ts');
  await expect(editor.locator('.view-line', { hasText: 'step42(' })).toBeVisible();
  await expect(editor.locator('.line-numbers.active-line-number')).toHaveText('42');
  await shot(page, 'open-line-42');
});

test('highlights exactly lines 42–50, and clearing removes the decoration', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.editor.highlight', {
    path: 'src/index.ts',
    ranges: [{ startLine: 42, endLine: 50 }],
    highlightId: 'fix-1',
  });
  const editor = editorFor(page, 'index.ts');
  const decorated = editor.locator('.view-overlays .openspace-highlight');
  await expect(decorated).toHaveCount(9);
  // Each decoration sits on the row of one of the lines 42..50.
  const lineTops = await editor
    .locator('.line-numbers')
    .evaluateAll((nodes) => Object.fromEntries(nodes.map((n) => [n.textContent?.trim(), (n.parentElement as HTMLElement).style.top])));
  const decorationTops = await decorated.evaluateAll((nodes) => nodes.map((n) => (n.parentElement as HTMLElement).style.top).sort());
  const expected = Array.from({ length: 9 }, (_, i) => lineTops[String(42 + i)]).sort();
  expect(decorationTops).toEqual(expected);
  const colour = await decorated.first().evaluate((n) => getComputedStyle(n).backgroundColor);
  expect(colour).toBe('rgba(46, 160, 67, 0.25)');
  await shot(page, 'highlight-42-50');
  await ide.agent.ok('openspace.editor.clear_highlight', { highlightId: 'fix-1' });
  await expect(decorated).toHaveCount(0);
});

test("Escape in the editor clears the agent's highlights (AC-3.2.3)", async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.editor.highlight', { path: 'src/index.ts', ranges: [{ startLine: 10, endLine: 12 }], highlightId: 'esc' });
  const editor = editorFor(page, 'index.ts');
  await expect(editor.locator('.view-overlays .openspace-highlight').first()).toBeAttached();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Escape');
  await expect(editor.locator('.view-overlays .openspace-highlight')).toHaveCount(0);
  expect((await ide.agent.call('openspace.editor.clear_highlight', { highlightId: 'esc' })).code).toBe('HIGHLIGHT_NOT_FOUND');
});

test('splits vertically: the file opens to the right and pane.list geometry matches the DOM within 2%', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.pane.open', { type: 'editor', contentId: 'src/auth.ts', splitDirection: 'vertical' });
  await expect(page.locator('.lm-TabBar-tab .lm-TabBar-tabLabel', { hasText: /^auth\.ts$/ })).toBeVisible();
  const { panes } = await ide.agent.ok('openspace.pane.list');
  const viewport = page.viewportSize()!;
  for (const [title, contentId] of [
    ['index.ts', 'src/index.ts'],
    ['auth.ts', 'src/auth.ts'],
  ] as const) {
    const pane = panes.find((p: { tabs: { contentId: string }[] }) => p.tabs.some((t) => t.contentId === contentId));
    const tab = page.locator('.lm-TabBar', {
      has: page.locator('.lm-TabBar-tabLabel', { hasText: new RegExp(`^${title.replace('.', '\\.')}$`) }),
    });
    const bar = (await tab.boundingBox())!;
    const body = (await editorFor(page, title).boundingBox())!;
    const dom = { x: bar.x, y: bar.y, width: bar.width, height: body.y + body.height - bar.y };
    expect(Math.abs(pane.geometry.x - (dom.x / viewport.width) * 100)).toBeLessThan(2);
    expect(Math.abs(pane.geometry.y - (dom.y / viewport.height) * 100)).toBeLessThan(2);
    expect(Math.abs(pane.geometry.width - (dom.width / viewport.width) * 100)).toBeLessThan(2);
    expect(Math.abs(pane.geometry.height - (dom.height / viewport.height) * 100)).toBeLessThan(2);
  }
  const left = (await editorFor(page, 'index.ts').boundingBox())!;
  const right = (await editorFor(page, 'auth.ts').boundingBox())!;
  expect(right.x).toBeGreaterThan(left.x + left.width - 2);
  await shot(page, 'split-vertical');
});

test('creates "test-runner" in the bottom panel; echo hello shows in xterm and in read_output', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.terminal.create', { title: 'test-runner' });
  await expect(page.locator('#theia-bottom-content-panel .lm-TabBar-tabLabel', { hasText: /^test-runner$/ })).toBeVisible();
  const sent = await ide.agent.ok('openspace.terminal.send', { terminalId: 'test-runner', text: 'echo hello' });
  await expect(page.locator('#theia-bottom-content-panel .xterm-screen').filter({ visible: true })).toBeVisible();
  // xterm draws with WebGL, so what the person sees is read from xterm's own buffer.
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { openspaceProbe: { terminalScreen(id: string): string[] } }).openspaceProbe.terminalScreen('test-runner'),
      ),
    )
    .toContain('hello');
  await expect
    .poll(async () => (await ide.agent.ok('openspace.terminal.read_output', { terminalId: 'test-runner', since: sent.cursor })).output)
    .toContain('hello');
  await shot(page, 'terminal-test-runner');
});

test('the palette lists the OpenSpace commands, and one run from it works', async () => {
  const { page } = ide.theia;
  await page
    .locator('#theia-app-shell')
    .click({ position: { x: 5, y: 5 } })
    .catch(() => undefined);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await expect(input).toBeVisible();
  await input.fill('>OpenSpace: ');
  const rows = page.locator('.quick-input-list .monaco-list-row', { hasText: 'OpenSpace:' });
  await expect(rows.first()).toBeVisible();
  await shot(page, 'palette');
  await input.fill('>OpenSpace: Create Terminal');
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await ide.agent.ok('openspace.terminal.list')).terminals.map((t: { title: string }) => t.title))
    .toContain('Terminal 3');
  await expect(page.locator('#theia-bottom-content-panel .lm-TabBar-tabLabel', { hasText: /^Terminal 3$/ })).toBeVisible();
});

test('a command the sandbox cannot contain waits for the person: Deny refuses it, Allow runs it', async () => {
  const { page } = ide.theia;
  // A host the sandbox does not let through (its allowed hosts are package registries); "Allow once"
  // lets it through for a while. Offline, curl only fails.
  const text = 'curl -s https://example.com/';
  const dialog = page.locator('.dialogBlock', { hasText: `Agent wants to run: ${text}` });
  const denied = ide.agent.call('openspace.terminal.send', { terminalId: 'test-runner', text });
  await expect(dialog).toBeVisible();
  await shot(page, 'confirm-dangerous');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect((await denied).code).toBe('CONFIRMATION_DENIED');
  const before = await ide.agent.ok('openspace.terminal.read_output', { terminalId: 'test-runner' });
  expect(before.output.join('\n')).not.toContain(text);

  const started = Date.now();
  const allowed = ide.agent.call('openspace.terminal.send', { terminalId: 'test-runner', text });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  const sent = await allowed;
  expect(sent.success).toBe(true);
  // Typed, and run to its end.
  await expect
    .poll(async () => {
      const read = await ide.agent.ok('openspace.terminal.read_output', { terminalId: 'test-runner', since: sent.cursor });
      return {
        typed: read.output.join('\n').includes(text),
        ran: read.lastCommand !== undefined && Date.parse(read.lastCommand.finishedAt) >= started,
      };
    })
    .toEqual({ typed: true, ran: true });
});

test('GET /openspace/instructions names the open file', async () => {
  await expect
    .poll(async () =>
      (await fetch(`${ide.theia.origin}/openspace/instructions`, { headers: { authorization: `Bearer ${ide.theia.token}` } })).text(),
    )
    .toMatch(/Main area: .*editor: src\/index\.ts/);
  const text = await (
    await fetch(`${ide.theia.origin}/openspace/instructions`, { headers: { authorization: `Bearer ${ide.theia.token}` } })
  ).text();
  expect(text).toMatch(/Terminals: .*test-runner/);
});

test('the last focused window serves; with none open calls fail at once; a new window serves again', async () => {
  const { context, origin } = ide.theia;
  // While a window closes, a call can still reach it and fail (BRIDGE_UNAVAILABLE): polls retry those.
  const open = async (contentId: string) => {
    const list = await ide.agent.call('openspace.pane.list');
    return list.success
      ? list.panes.some((p: { tabs: { contentId: string }[] }) => p.tabs.some((t) => t.contentId === contentId))
      : undefined;
  };
  expect(await open('src/auth.ts')).toBe(true);

  // A second window registers when it has loaded: it serves now, and it has no auth.ts open.
  const second = await context.newPage();
  await second.setViewportSize({ width: 1280, height: 800 });
  await second.goto(origin);
  await expect.poll(() => open('src/auth.ts'), { timeout: 60_000 }).toBe(false);
  await ide.agent.ok('openspace.editor.open', { path: 'notes.txt' });
  await expect(second.locator('.lm-TabBar-tabLabel', { hasText: /^notes\.txt$/ })).toBeVisible();

  // Focusing the first window makes it serve again.
  await ide.theia.page.bringToFront();
  await ide.theia.page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect.poll(() => open('src/auth.ts')).toBe(true);

  // Closing the first window hands the calls back to the second.
  await ide.theia.page.close();
  await expect.poll(() => open('notes.txt'), { timeout: 30_000 }).toBe(true);

  // No window at all: calls fail at once.
  await second.close();
  await expect.poll(async () => (await ide.agent.call('openspace.pane.list')).code, { timeout: 30_000 }).toBe('BRIDGE_UNAVAILABLE');
  const started = Date.now();
  expect((await ide.agent.call('openspace.editor.open', { path: 'src/index.ts' })).code).toBe('BRIDGE_UNAVAILABLE');
  expect(Date.now() - started).toBeLessThan(1000);

  // A window that comes back serves again.
  const third = await context.newPage();
  await third.goto(origin);
  await expect.poll(async () => (await ide.agent.call('openspace.pane.list')).success, { timeout: 60_000 }).toBe(true);
  ide.theia.page = third;
});
