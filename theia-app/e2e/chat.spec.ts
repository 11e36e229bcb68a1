import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedOpencodeHome, scriptedProvider } from '../../conformance/agents/agents.js';
import { OPENAI_MODEL_ID, openaiToolResults, startOpenaiModel } from '../../conformance/agents/openai-model.js';
import type { ScriptedModel } from '../../conformance/agents/script.js';
import { AGENT_CONSENT_SETTING, CONSENT_VERSION } from '../../src/security/consent.js';
import type { TheiaTargetOptions } from '../../conformance/theia-target.js';
import { useTheia } from './theia-session.js';

/**
 * Issue 16 as a person sees it: the chat panel in Theia, backed by a real `opencode serve` the IDE
 * starts, whose model is our scripted one (conformance/agents). The person types; OpenCode's agent
 * opens a file through the hub's openspace.editor.open (the editor shows it), asks to write a file
 * (the panel asks the person), and its answer streams in. Then a fork, a revert and a reload.
 */
const APP = 'code/src/app.ts';
const NOTE = 'chat/note.md';
const CODE = 'const store = new TaskStore();';
const QUESTION = {
  header: 'Database',
  question: 'Which database should the tests use?',
  options: [
    { label: 'SQLite', description: 'in memory, fast' },
    { label: 'Postgres', description: 'as in production' },
  ],
};
const EDITED = 'const store = new TaskStore(); // one store for the app';
const FINAL = `Opened \`${APP}:5\` and wrote the note.\n\n\`\`\`ts\n${CODE}\n\`\`\``;
const opencodeName = (tool: string) => `openspace_${tool.replaceAll('.', '_')}`;

const panel = (page: Page) => page.locator('#openspace-chat');
const currentTab = (page: Page) => page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current');

async function openChat(page: Page): Promise<void> {
  // The key toggles: a chat that showed itself meanwhile (answering its request from a notification
  // may) would close. Pressed while the chat is hidden, until its input shows.
  await expect(async () => {
    if (await panel(page).isHidden()) {
      await page.locator('#theia-main-content-panel').click();
      await page.keyboard.press('Control+Alt+i');
    }
    await expect(panel(page).locator('textarea')).toBeVisible({ timeout: 20_000 });
  }).toPass({ timeout: 60_000 });
}

test.describe('with OpenCode and the scripted model', () => {
  let model: ScriptedModel | undefined;
  /** A second provider whose model asks the person a question (OpenCode's question tool) first. */
  let asking: ScriptedModel | undefined;
  /** A third whose model edits a file with OpenCode's own tools (read, then edit). */
  let editing: ScriptedModel | undefined;
  const options: TheiaTargetOptions = {};

  // Before useTheia's own beforeAll: the model's URL goes into the home's OpenCode config Theia starts with.
  test.beforeAll(async () => {
    model = await startOpenaiModel({
      steps: [
        { tool: 'openspace.editor.open', arguments: { path: APP, line: 5 } },
        { tool: 'openspace.file.write', arguments: { path: NOTE, content: 'Written from the chat.\n' } },
      ],
      finalText: FINAL,
      agentToolName: opencodeName,
    });
    asking = await startOpenaiModel({
      steps: [{ tool: 'question', arguments: { questions: [QUESTION] } }],
      finalText: 'Using the database you chose.',
      agentToolName: (tool) => (tool === 'question' ? tool : opencodeName(tool)),
    });
    editing = await startOpenaiModel({
      steps: [
        { tool: 'read', arguments: { filePath: APP } },
        { tool: 'edit', arguments: { filePath: APP, oldString: CODE, newString: EDITED } },
      ],
      finalText: 'Said why there is one store.',
      agentToolName: (tool) => tool,
    });
    const home = await mkdtemp(join(tmpdir(), 'openspace-chat-home-'));
    // Writing through the hub asks the person (in the panel); opening a file does not.
    const env = await scriptedOpencodeHome(home, model.url, {
      permission: { [opencodeName('openspace.file.write')]: 'ask' },
      provider: {
        scripted: scriptedProvider(model.url),
        asking: scriptedProvider(asking.url, 'Asking model'),
        editing: scriptedProvider(editing.url, 'Editing model'),
      },
    });
    options.home = home;
    options.userSettings = { [AGENT_CONSENT_SETTING]: CONSENT_VERSION };
    options.env = env;
  });
  test.afterAll(async () => {
    expect(model?.problems ?? []).toEqual([]);
    expect(asking?.problems ?? []).toEqual([]);
    expect(editing?.problems ?? []).toEqual([]);
    await model?.close();
    await asking?.close();
    await editing?.close();
  });

  const ide = useTheia(options);
  test('the person asks in the chat; the agent opens the file, asks to write, and the answer streams in', async () => {
    const { page, workspace } = ide.theia;
    await openChat(page);
    const input = panel(page).locator('textarea');
    await input.fill(`Open ${APP} at line 5 and write a note`);
    await input.press('Enter');

    // The tool call is a readable line, and the IDE shows the file the agent opened.
    await expect(panel(page).locator('.os-chat-tool', { hasText: `opened ${APP}:5` })).toBeVisible({ timeout: 60_000 });
    await expect(currentTab(page)).toContainText('app.ts');

    // Writing asks the person, in the panel.
    const card = panel(page).locator('.os-chat-permission');
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card).toContainText('openspace.file.write');
    await page.screenshot({ path: 'reports/screenshots/chat-permission.png' });
    await card.getByRole('button', { name: 'Allow once' }).click();

    await expect(panel(page).getByText('and wrote the note.')).toBeVisible({ timeout: 30_000 });
    await expect(card).toHaveCount(0);
    expect(await readFile(join(workspace, NOTE), 'utf8')).toBe('Written from the chat.\n');
    await page.screenshot({ path: 'reports/screenshots/chat-answer.png' });

    // The file reference in the answer opens the file.
    await currentTab(page).locator('.lm-TabBar-tabCloseIcon').click();
    await expect(page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: 'app.ts' })).toHaveCount(0);
    await panel(page)
      .locator('.os-chat-text a.os-file-ref', { hasText: `${APP}:5` })
      .click();
    await expect(currentTab(page)).toContainText('app.ts');

    // A code block opens in a new editor.
    await panel(page).locator('.os-chat-code').getByRole('button', { name: 'Open' }).click();
    await expect(currentTab(page)).toContainText('Untitled');
    await expect(page.locator('#theia-main-content-panel .view-lines').last()).toContainText(CODE);
    // The person closes it unsaved (a reload comes later).
    await currentTab(page).locator('.lm-TabBar-tabCloseIcon').click();
    const unsaved = page.locator('.dialogBlock');
    const asked = await unsaved.waitFor({ timeout: 2000 }).then(
      () => true,
      () => false,
    );
    if (asked) await unsaved.getByRole('button', { name: /Don.t Save/i }).click();
    await expect(page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: 'Untitled' })).toHaveCount(0);
  });

  test('fork makes a second session with the conversation; revert hides the turn until Restore', async () => {
    const { page } = ide.theia;
    await panel(page).getByRole('button', { name: 'Fork', exact: true }).click();
    await expect(panel(page).getByRole('button', { name: /Sessions \(2\)/ })).toBeVisible({ timeout: 15_000 });
    await expect(panel(page).locator('.os-chat-title')).toContainText('fork');
    await expect(panel(page).getByText('and wrote the note.')).toBeVisible();

    await panel(page).getByRole('button', { name: 'Revert to here' }).first().click();
    const restore = panel(page).getByRole('button', { name: 'Restore' });
    await expect(restore).toBeVisible({ timeout: 15_000 });
    await expect(panel(page).locator('.os-chat-reverted').first()).toBeVisible();
    await page.screenshot({ path: 'reports/screenshots/chat-reverted.png' });
    await restore.click();
    await expect(restore).toHaveCount(0, { timeout: 15_000 });
  });

  test("the hub's instructions say what the chat is doing, in the right panel's line", async () => {
    const { origin, token } = ide.theia;
    const instructions = async () =>
      (await fetch(`${origin}/openspace/instructions`, { headers: { authorization: `Bearer ${token}` } })).text();
    // The IDE publishes its layout a moment after a change.
    await expect
      .poll(instructions, { timeout: 10_000 })
      .toMatch(/- Right panel: view: openspace-chat \(active[^)]*\) — OpenCode chat connected, session "[^"]*\(fork #1\)", idle/);
  });

  test('a reload keeps the conversation, and both sessions', async () => {
    const { page } = ide.theia;
    await page.reload();
    // Theia restores its layout: the chat is open again where it was, on the session it showed.
    await expect(panel(page).locator('textarea')).toBeVisible({ timeout: 60_000 });
    await expect(panel(page).getByText('and wrote the note.')).toBeVisible({ timeout: 30_000 });
    await expect(panel(page).locator('.os-chat-tool', { hasText: `opened ${APP}:5` })).toBeVisible();
    await expect(panel(page).getByRole('button', { name: /Sessions \(2\)/ })).toBeVisible();
    await expect(panel(page).locator('.os-chat-title')).toContainText('fork');
  });

  test('a request waiting while the chat is closed is a notification with the same answers', async () => {
    const { page, workspace } = ide.theia;
    await rm(join(workspace, NOTE));
    await panel(page).getByRole('button', { name: 'New session' }).click();
    const input = panel(page).locator('textarea');
    await input.fill('And again');
    await input.press('Enter');
    await expect(panel(page).locator('.os-chat-permission')).toBeVisible({ timeout: 60_000 });
    // The person closes the chat (the toggle, from the focused panel) and reloads; the request still waits.
    await input.focus();
    await page.keyboard.press('Control+Alt+i');
    await expect(panel(page)).toBeHidden();
    await page.reload();
    const notice = page.locator('.theia-notification-toasts .theia-notification-list-item', {
      hasText: 'OpenCode asks to use openspace.file.write',
    });
    await expect(notice).toBeVisible({ timeout: 60_000 });
    // The notification can come before the window has finished starting: the picture waits for the workbench.
    await expect(page.locator('.theia-preload')).toHaveCount(0, { timeout: 60_000 });
    await page.screenshot({ path: 'reports/screenshots/chat-permission-notification.png' });
    await notice.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => readFile(join(workspace, NOTE), 'utf8').catch(() => ''), { timeout: 30_000 }).toBe('Written from the chat.\n');
    await openChat(page);
    await expect(panel(page).getByText('and wrote the note.')).toBeVisible({ timeout: 30_000 });
  });

  test("the agent's question is a card; the person's choice goes back and the agent goes on", async () => {
    const { page } = ide.theia;
    await panel(page).getByRole('button', { name: 'New session' }).click();
    const picker = panel(page).getByLabel('Model');
    await picker.selectOption(`asking/${OPENAI_MODEL_ID}`);
    const input = panel(page).locator('textarea');
    await input.fill('Set up the tests');
    await input.press('Enter');
    const card = panel(page).locator('.os-chat-question');
    await expect(card).toContainText(QUESTION.question, { timeout: 60_000 });
    await card.getByLabel('Postgres').check();
    await page.screenshot({ path: 'reports/screenshots/chat-question.png' });
    await card.getByRole('button', { name: 'Answer' }).click();
    await expect(panel(page).getByText('Using the database you chose.')).toBeVisible({ timeout: 30_000 });
    await expect(card).toHaveCount(0);
    expect(openaiToolResults(asking!.conversation().at(-1)!).join('\n')).toContain('Postgres');
    await picker.selectOption(`scripted/${OPENAI_MODEL_ID}`);
  });

  test("OpenCode's own edit is reviewed after the turn: Reject puts the file back", async () => {
    const { page, workspace } = ide.theia;
    const before = await readFile(join(workspace, APP), 'utf8');
    await panel(page).getByRole('button', { name: 'New session' }).click();
    const picker = panel(page).getByLabel('Model');
    await picker.selectOption(`editing/${OPENAI_MODEL_ID}`);
    const input = panel(page).locator('textarea');
    await input.fill('Say why there is one store');
    await input.press('Enter');
    await expect(panel(page).getByText('Said why there is one store.')).toBeVisible({ timeout: 60_000 });
    expect(await readFile(join(workspace, APP), 'utf8')).toContain(EDITED);
    await panel(page).getByRole('button', { name: 'Review changes' }).last().click();
    await expect(page.locator('.lm-TabBar-tab', { hasText: 'app.ts ↔ changed' })).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines:visible')).toContainText('one store for the app');
    await expect(page.locator('.openspace-hunk-bar:visible')).toHaveCount(1);
    await page.locator('[id="openspace.review.reject"]').click();
    await expect.poll(() => readFile(join(workspace, APP), 'utf8'), { timeout: 10_000 }).toBe(before);
    await picker.selectOption(`scripted/${OPENAI_MODEL_ID}`);
  });

  test('"Always allow" answers the same request unasked afterwards, and is listed in the settings', async () => {
    const { page, workspace } = ide.theia;
    const ask = async () => {
      await panel(page).getByRole('button', { name: 'New session' }).click();
      const input = panel(page).locator('textarea');
      await input.fill('Once more, please');
      await input.press('Enter');
    };
    await rm(join(workspace, NOTE));
    await ask();
    const card = panel(page).locator('.os-chat-permission');
    await card.getByRole('button', { name: 'Always allow' }).click({ timeout: 60_000 });
    await expect(panel(page).getByText('and wrote the note.')).toBeVisible({ timeout: 30_000 });
    expect(await readFile(join(workspace, NOTE), 'utf8')).toBe('Written from the chat.\n');

    await rm(join(workspace, NOTE));
    await ask();
    await expect(panel(page).getByText('and wrote the note.')).toBeVisible({ timeout: 60_000 });
    await expect(card).toHaveCount(0);
    expect(await readFile(join(workspace, NOTE), 'utf8')).toBe('Written from the chat.\n');

    await page.locator('#theia-main-content-panel').click();
    await page.keyboard.press('ControlOrMeta+,');
    await page.locator('input.settings-search-input').fill('openspace.chat.alwaysAllow');
    await expect(page.locator('#theia-main-content-panel').getByText('openspace_openspace_file_write', { exact: true })).toBeVisible();
  });
});

test.describe('when OpenCode cannot start', () => {
  const broken = useTheia({
    userSettings: { [AGENT_CONSENT_SETTING]: CONSENT_VERSION, 'openspace.chat.opencodePath': '/nowhere/opencode' },
  });

  test('the panel says why, and offers Retry', async () => {
    const { page } = broken.theia;
    await page.locator('#theia-main-content-panel').click();
    await page.keyboard.press('Control+Alt+i');
    const banner = panel(page).locator('.os-chat-failed');
    await expect(banner).toContainText('OpenCode was not found at "/nowhere/opencode"', { timeout: 30_000 });
    await page.screenshot({ path: 'reports/screenshots/chat-failed.png' });
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect(banner).toContainText('OpenCode was not found at "/nowhere/opencode"');
  });
});
