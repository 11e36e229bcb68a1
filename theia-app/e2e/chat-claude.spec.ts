import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_BIN, claudeOfflineEnv } from '../../conformance/agents/agents.js';
import { startAnthropicModel } from '../../conformance/agents/anthropic-model.js';
import type { Script, ScriptedModel } from '../../conformance/agents/script.js';
import type { TheiaTargetOptions } from '../../conformance/theia-target.js';
import { AGENT_CONSENT_SETTING, CONSENT_VERSION } from '../../src/security/consent.js';
import { openChatWith, useTheia } from './theia-session.js';

/**
 * Issue 33's "done when" as a person lives it, with the real agent: Claude Code through Zed's
 * `claude-agent-acp` (ci/agents) in the chat panel, against a scripted Anthropic model. The person
 * picks Claude, mentions a file; Claude opens it through OpenSpace (the editor shows it), reads it
 * and edits it twice with its own Edit tool, each after the person's card; then the person reviews
 * the turn's change hunk by hunk: one rename kept, the other put back.
 */
const panel = (page: Page) => page.locator('#openspace-chat');
const currentTab = (page: Page) => page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current');

const script: Script = {
  // The steps that name the file are completed once the workspace (a copy Theia opens) is known.
  steps: [],
  finalText: 'Renamed step5 and step30 in src/index.ts.',
  agentToolName: (t) => (t.startsWith('openspace.') ? `mcp__openspace__${t.replaceAll('.', '_')}` : t),
};
let model: ScriptedModel | undefined;
let home: string | undefined;
const options: TheiaTargetOptions = {};

// Before Theia starts (useTheia's hook runs after this one): the model, and Claude in the person's settings.
test.beforeAll(async () => {
  model = await startAnthropicModel(script);
  home = await mkdtemp('/var/tmp/openspace-e2e-claude-home-');
  options.userSettings = {
    [AGENT_CONSENT_SETTING]: CONSENT_VERSION,
    'openspace.chat.agents': [
      {
        name: 'Claude',
        command: join(AGENT_BIN, 'claude-agent-acp'),
        env: {
          HOME: home,
          ...claudeOfflineEnv(model.url),
        },
      },
    ],
  };
});
const ide = useTheia(options);
test.afterAll(async () => {
  await model?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

test('the person picks Claude Code, mentions a file; Claude opens it through OpenSpace, edits it after the cards, and the person reviews the change hunk by hunk', async () => {
  test.setTimeout(180_000);
  const { page, workspace } = ide.theia;
  const file = join(workspace, 'src/index.ts');
  script.steps.push(
    { tool: 'openspace.editor.open', arguments: { path: 'src/index.ts', line: 5 } },
    { tool: 'Read', arguments: { file_path: file } },
    { tool: 'Edit', arguments: { file_path: file, old_string: 'function step5(', new_string: 'function stepFive(' } },
    { tool: 'Edit', arguments: { file_path: file, old_string: 'function step30(', new_string: 'function stepThirty(' } },
  );

  await openChatWith(page, 'Claude');
  const input = panel(page).locator('textarea');

  await input.fill('In @src/index.ts rename step5 and step30');
  await input.press('Enter');
  // Claude asks before every MCP tool and every edit: the person allows each card as it comes.
  const card = panel(page).locator('.os-chat-permission');
  const answer = panel(page).getByText(script.finalText);
  const cards: string[] = [];
  await expect(async () => {
    if (await card.isVisible()) {
      cards.push((await card.locator('.os-chat-permission-title').textContent()) ?? '');
      await card.getByRole('button', { name: 'Allow once' }).click();
    }
    await expect(answer).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 120_000, intervals: [250] });
  expect(model!.problems).toEqual([]);
  expect(cards).toEqual(['Claude asks to use openspace.editor.open', 'Claude asks to change files', 'Claude asks to change files']);
  // The mention went as the file; the IDE shows what Claude opened; its edits are in the file.
  expect(JSON.stringify(model!.conversation()[0]!.body.messages)).toContain('src/index.ts');
  await expect(currentTab(page)).toContainText('index.ts');
  await expect(panel(page).locator('.os-chat-tool', { hasText: 'opened src/index.ts:5' })).toBeVisible();
  const edited = await readFile(file, 'utf8');
  expect(edited).toContain('function stepFive(');
  expect(edited).toContain('function stepThirty(');

  // The turn's line offers the review: the file before the turn on the left, Claude's on the right.
  await panel(page).getByRole('button', { name: 'Review changes' }).last().click();
  await expect(page.locator('.lm-TabBar-tab', { hasText: 'index.ts ↔ changed' })).toBeVisible({ timeout: 15_000 });
  const bars = page.locator('.openspace-hunk-bar:visible');
  await expect(bars).toHaveCount(2);
  await page.screenshot({ path: 'reports/screenshots/chat-claude-review.png' });
  await bars.nth(1).locator('.openspace-hunk-reject').click();
  await expect(bars).toHaveCount(1);
  await bars.first().locator('.openspace-hunk-accept').click();
  await expect.poll(() => readFile(file, 'utf8'), { timeout: 10_000 }).toContain('function step30(');
  const reviewed = await readFile(file, 'utf8');
  expect(reviewed).toContain('function stepFive(');
  expect(reviewed).not.toContain('stepThirty');
});
