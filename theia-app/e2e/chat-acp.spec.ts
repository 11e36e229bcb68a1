import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_CONSENT_SETTING, CONSENT_VERSION } from '../../src/security/consent.js';
import { useTheia } from './theia-session.js';

/**
 * Issue 33 as a person sees it: an agent over the Agent Client Protocol in the chat panel. The
 * person's settings name one (ci/acp-scripted-agent.mjs: a scripted ACP agent that uses the MCP
 * server the panel hands it, the IDE's hub); the person picks it in the panel, asks it to open a
 * file (the editor shows it, the answer and the tool call stream in), sees its slash commands,
 * mentions the selected lines with Ctrl+Alt+K, answers its permission card for a write, and stops
 * a long turn.
 */
const SCRIPTED = fileURLToPath(new URL('../../ci/acp-scripted-agent.mjs', import.meta.url));
const panel = (page: Page) => page.locator('#openspace-chat');
const currentTab = (page: Page) => page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current');

const ide = useTheia({
  userSettings: {
    [AGENT_CONSENT_SETTING]: CONSENT_VERSION,
    'openspace.chat.agents': [{ name: 'Scripted ACP', command: process.execPath, args: [SCRIPTED] }],
  },
});

async function send(page: Page, text: string): Promise<void> {
  const input = panel(page).locator('textarea');
  await input.fill(text);
  await input.press('Enter');
}

test('the person picks an ACP agent, which opens a file through the hub, writes after the permission card, and stops when asked', async () => {
  const { page, workspace } = ide.theia;
  await expect(async () => {
    if (await panel(page).isHidden()) {
      await page.locator('#theia-main-content-panel').click();
      await page.keyboard.press('Control+Alt+i');
    }
    await expect(panel(page).getByLabel('Chat with')).toBeVisible({ timeout: 20_000 });
  }).toPass({ timeout: 60_000 });
  await panel(page).getByLabel('Chat with').selectOption('Scripted ACP');
  const input = panel(page).locator('textarea');
  await expect(input).toHaveAttribute('placeholder', /^Ask Scripted ACP…/, { timeout: 30_000 });

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
