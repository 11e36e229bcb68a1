import { expect, test, type Page } from '@playwright/test';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_CONSENT_SETTING, CONSENT_VERSION } from '../../src/security/consent.js';
import { openChatWith, useTheia } from './theia-session.js';

/**
 * Issue 33 as a person sees it: an agent over the Agent Client Protocol in the chat panel. The
 * person's settings name one (ci/acp-scripted-agent.mjs: a scripted ACP agent that uses the MCP
 * server the panel hands it, the IDE's hub); the person picks it in the panel, asks it to open a
 * file (the editor shows it, the answer and the tool call stream in), sees its slash commands,
 * mentions the selected lines with Ctrl+Alt+K, answers its permission card for a write, and stops
 * a long turn.
 */
const SCRIPTED = fileURLToPath(new URL('../../ci/acp-scripted-agent.mjs', import.meta.url));
const LOGIN_FILE = `/var/tmp/openspace-e2e-acp-login-${process.pid}`;
const panel = (page: Page) => page.locator('#openspace-chat');
const currentTab = (page: Page) => page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current');

const ide = useTheia({
  userSettings: {
    [AGENT_CONSENT_SETTING]: CONSENT_VERSION,
    'openspace.chat.agents': [
      { name: 'Scripted ACP', command: process.execPath, args: [SCRIPTED] },
      {
        name: 'Scripted sign-in',
        command: process.execPath,
        args: [SCRIPTED],
        env: { SCRIPTED_AGENT_AUTH: 'terminal', SCRIPTED_AGENT_LOGIN_FILE: LOGIN_FILE },
      },
    ],
  },
});

async function send(page: Page, text: string): Promise<void> {
  const input = panel(page).locator('textarea');
  await input.fill(text);
  await input.press('Enter');
}

test('the person picks an ACP agent, which opens a file through the hub, writes after the permission card, and stops when asked', async () => {
  const { page, workspace } = ide.theia;
  await openChatWith(page, 'Scripted ACP');
  const input = panel(page).locator('textarea');

  // The answer streams in with the tool call as a line, and the IDE shows what the agent opened.
  await send(page, 'open src/index.ts:3');
  await expect(panel(page).locator('.os-chat-tool', { hasText: 'opened src/index.ts:3' })).toBeVisible({ timeout: 30_000 });
  await expect(panel(page).getByText('Opening src/index.ts at line 3.')).toBeVisible();
  await expect(currentTab(page)).toContainText('index.ts');
  await expect(panel(page).locator('.os-chat-title')).toHaveText('Open src/index.ts');
  await page.screenshot({ path: 'reports/screenshots/chat-acp-answer.png' });

  // The agent's modes are the mode picker's; a prompt in another mode sets it first.
  await panel(page).getByLabel('Agent').selectOption({ label: 'Plan only' });
  await send(page, 'mode?');
  await expect(panel(page).getByText('Mode: plan')).toBeVisible({ timeout: 30_000 });

  // The agent's slash commands show as the person types "/".
  await input.fill('/');
  await expect(panel(page).locator('.os-chat-commands')).toContainText('/review Review the changes in the workspace');
  await input.fill('');

  // The selected lines go into the draft as an @ mention (Ctrl+Alt+K); the agent gets the file as a link.
  await page.locator('#theia-main-content-panel .view-line', { hasText: 'function step4(' }).click();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Control+Alt+k');
  await expect(input).toHaveValue('@src/index.ts#L4-6 ');
  await input.press('End');
  await input.pressSequentially('what is this?');
  await input.press('Enter');
  await expect(panel(page).getByText(/Linked: src\/index\.ts#L4-6 <file:\/\/.*\/src\/index\.ts> \(lines 4-6\)/)).toBeVisible({
    timeout: 30_000,
  });

  // A write waits on the card; Allow once lets it through the hub.
  await send(page, 'write notes/acp.md Written by an ACP agent');
  const card = panel(page).locator('.os-chat-permission');
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toContainText('openspace.file.write');
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel(page).getByText('Wrote notes/acp.md (yes).')).toBeVisible({ timeout: 30_000 });
  expect(await readFile(join(workspace, 'notes/acp.md'), 'utf8')).toBe('Written by an ACP agent');

  // A long turn stops on Stop (session/cancel), and the panel takes the next prompt.
  await send(page, 'wait');
  await expect(panel(page).getByText(/3 4 5/)).toBeVisible({ timeout: 30_000 });
  await panel(page).getByRole('button', { name: 'Stop' }).click();
  await expect(panel(page).locator('.os-chat-working')).toHaveCount(0, { timeout: 15_000 });
  await send(page, 'open src/index.ts:5');
  await expect(panel(page).locator('.os-chat-tool', { hasText: 'opened src/index.ts:5' })).toBeVisible({ timeout: 30_000 });
});

test("the agent's own edits (outside OpenSpace's tools) are reviewed hunk by hunk after the turn: a rejected hunk is put back, a rejected new file deleted", async () => {
  const { page, workspace } = ide.theia;
  const colors = join(workspace, 'notes/colors.txt');
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(colors, 'red\nkeep\nkeep\nkeep\nkeep\nred\n');
  const review = (n: number) => panel(page).locator('.os-chat-turn-summary').nth(n).getByRole('button', { name: 'Review changes' });
  const summaries = await panel(page).locator('.os-chat-turn-summary').count();

  // The agent edits the file itself (as Claude's Edit tool does); the turn's line offers the review.
  await send(page, 'edit notes/colors.txt red blue');
  await expect(panel(page).getByText('Edited notes/colors.txt.')).toBeVisible({ timeout: 30_000 });
  expect(await readFile(colors, 'utf8')).toBe('blue\nkeep\nkeep\nkeep\nkeep\nblue\n');
  await expect(review(summaries)).toBeVisible({ timeout: 10_000 });
  await review(summaries).click();
  await expect(page.locator('.lm-TabBar-tab', { hasText: 'colors.txt ↔ changed' })).toBeVisible({ timeout: 10_000 });
  // Left, the file before the turn; right, the file as the agent left it.
  await expect(page.locator('.monaco-diff-editor .editor.original .view-lines:visible')).toContainText('red');
  await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines:visible')).not.toContainText('red');
  const bars = page.locator('.openspace-hunk-bar:visible');
  await expect(bars).toHaveCount(2);
  await page.screenshot({ path: 'reports/screenshots/chat-acp-review.png' });
  await bars.nth(1).locator('.openspace-hunk-reject').click();
  await expect(bars).toHaveCount(1);
  await bars.first().locator('.openspace-hunk-accept').click();
  await expect.poll(() => readFile(colors, 'utf8'), { timeout: 10_000 }).toBe('blue\nkeep\nkeep\nkeep\nkeep\nred\n');
  await expect(page.locator('.lm-TabBar-tab', { hasText: 'colors.txt ↔' })).toHaveCount(0);

  // A file the agent created (after the person allowed it), rejected whole, is gone.
  await send(page, 'create notes/new.md made by the agent');
  const card = panel(page).locator('.os-chat-permission');
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel(page).getByText('Created notes/new.md.')).toBeVisible({ timeout: 30_000 });
  await review(summaries + 1).click();
  await expect(page.locator('.lm-TabBar-tab', { hasText: 'new.md ↔' })).toBeVisible({ timeout: 10_000 });
  await page.locator('[id="openspace.review.reject"]').click();
  await expect
    .poll(
      () =>
        access(join(workspace, 'notes/new.md')).then(
          () => 'there',
          () => 'gone',
        ),
      { timeout: 10_000 },
    )
    .toBe('gone');
});

test('an image pasted into the prompt shows as a chip, goes to the agent with the words, and shows in the message', async () => {
  const { page } = ide.theia;
  const input = panel(page).locator('textarea');
  await input.focus();
  await input.evaluate((area) => {
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    );
    const data = new DataTransfer();
    data.items.add(new File([png], 'image.png', { type: 'image/png' }));
    area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(panel(page).locator('.os-chat-images li')).toHaveText('image.png×');
  await send(page, 'what is wrong here?');
  await expect(panel(page).getByText('Images: image/png, 70 bytes.')).toBeVisible({ timeout: 30_000 });
  await expect(panel(page).locator('.os-chat-user img.os-chat-image').last()).toHaveAttribute('alt', 'image.png');
  await expect(panel(page).locator('.os-chat-images li')).toHaveCount(0);
});

test("Fork copies an ACP agent's session, which goes on apart; what the agent cannot do is not offered", async () => {
  const { page } = ide.theia;
  const title = await panel(page).locator('.os-chat-title').textContent();
  // The scripted agent forks (session/fork) but does not revert or compact.
  await expect(panel(page).getByRole('button', { name: /^(Revert to here|Fork from here|Compact)$/ })).toHaveCount(0);
  await panel(page).getByRole('button', { name: 'Fork', exact: true }).click();
  await expect(panel(page).locator('.os-chat-title')).toHaveText(`${title} (fork)`, { timeout: 15_000 });
  await expect(panel(page).locator('.os-chat-user', { hasText: 'what is wrong here?' })).toBeVisible();
  await send(page, 'said?');
  await expect(panel(page).getByText(/^Said before: .*what is wrong here\?$/)).toBeVisible({ timeout: 30_000 });
});

test("an agent whose sign-in runs in a terminal: the notice's button runs it there, the words wait in the draft, and then go", async () => {
  const { page } = ide.theia;
  await rm(LOGIN_FILE, { force: true });
  await panel(page).getByLabel('Chat with').selectOption('Scripted sign-in');
  const input = panel(page).locator('textarea');
  await expect(input).toHaveAttribute('placeholder', /^Ask Scripted sign-in…/, { timeout: 30_000 });
  await send(page, 'open src/index.ts:2');
  const notice = page.locator('.theia-notification-toasts .theia-notification-list-item', {
    hasText: 'Scripted sign-in needs you to sign in first',
  });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(input).toHaveValue('open src/index.ts:2');
  await notice.getByRole('button', { name: 'Sign in in a terminal' }).click();
  await expect(page.locator('.lm-TabBar-tab', { hasText: 'Sign in: Scripted sign-in' })).toBeVisible({ timeout: 15_000 });
  // The sign-in ran there, with the method's arguments and the agent's environment (xterm draws with WebGL: its effect is read).
  await expect.poll(() => readFile(LOGIN_FILE, 'utf8').catch(() => ''), { timeout: 15_000 }).toBe('signed in');
  await input.press('Enter');
  await expect(panel(page).locator('.os-chat-tool', { hasText: 'opened src/index.ts:2' })).toBeVisible({ timeout: 30_000 });
  await rm(LOGIN_FILE, { force: true });
});
