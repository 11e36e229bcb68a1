import { expect, test, type Page } from '@playwright/test';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_CONSENT_SETTING, CONSENT_VERSION } from '../../src/security/consent.js';
import { useTheia } from './theia-session.js';

/** The agent CLI the pane runs here: a real MCP client that opens a file once it has reached the hub. */
const PANE_AGENT = fileURLToPath(new URL('./fixtures/pane-agent.mjs', import.meta.url));
const APP = 'code/src/app.ts';
const STORE = 'code/src/task-store.ts';

const pane = (page: Page) => page.locator('#openspace-agent-pane');
const currentTab = (page: Page) => page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current');

/** The agents the pane started, by process id (each writes agent-pane/started-<pid>.txt through the hub). */
async function started(workspace: string): Promise<number[]> {
  const names = await readdir(join(workspace, 'agent-pane')).catch(() => []);
  return names.map((name) => Number(/^started-(\d+)\.txt$/.exec(name)?.[1])).filter(Boolean);
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Ctrl+L in the editor of `file` (the shell takes keys once it has loaded). */
async function ctrlLInEditor(page: Page, file: string): Promise<void> {
  await page.locator(`.theia-editor[id*="/${file}"] .view-lines`).first().click();
  await page.keyboard.press('Control+l');
}

test.describe('with an agent CLI that is there', () => {
  const ide = useTheia({
    userSettings: {
      [AGENT_CONSENT_SETTING]: CONSENT_VERSION,
      'openspace.agent.command': process.execPath,
      'openspace.agent.args': [PANE_AGENT, APP],
    },
  });

  test('Ctrl+L in an editor opens the agent pane on the right, and the agent in it drives the IDE at once', async () => {
    const { page, workspace } = ide.theia;
    await ide.agent.ok('openspace.editor.open', { path: STORE, line: 1 });
    const before = Date.now();
    await ctrlLInEditor(page, STORE);
    await expect(page.locator('#theia-right-content-panel #openspace-agent-pane')).toBeVisible();
    const paneShown = Date.now() - before;
    // The agent's editor.open: app.ts becomes the current editor.
    await expect(currentTab(page)).toContainText('app.ts', { timeout: 15_000 });
    const agentActed = Date.now() - before;
    expect(await started(workspace)).toHaveLength(1);
    await page.screenshot({ path: 'reports/screenshots/agent-pane.png' });
    console.log(`agent pane shown after ${paneShown} ms; the agent's editor.open landed after ${agentActed} ms`);
  });

  test('Ctrl+L hides the pane and shows it again, the same agent still running; inside the pane too', async () => {
    const { page, workspace } = ide.theia;
    const [pid] = await started(workspace);
    await ctrlLInEditor(page, APP);
    await expect(pane(page)).toBeHidden();
    await ctrlLInEditor(page, APP);
    await expect(pane(page)).toBeVisible();
    // Focus is in the pane's terminal now: Ctrl+L there hides it too.
    await pane(page).click();
    await page.keyboard.press('Control+l');
    await expect(pane(page)).toBeHidden();
    expect(await started(workspace)).toEqual([pid]);
    expect(running(pid!)).toBe(true);
  });

  test('a reload keeps the pane on the right with the same agent process', async () => {
    const { page, workspace } = ide.theia;
    const [pid] = await started(workspace);
    await page.reload();
    await expect(page.locator('#theia-right-content-panel #openspace-agent-pane')).toHaveCount(1, { timeout: 30_000 });
    await ctrlLInEditor(page, APP);
    await expect(pane(page)).toBeVisible();
    expect(await started(workspace)).toEqual([pid]);
    expect(running(pid!)).toBe(true);
  });

  test('an agent that exited starts again on the next Ctrl+L', async () => {
    const { page, workspace } = ide.theia;
    const [pid] = await started(workspace);
    process.kill(pid!, 'SIGTERM');
    await expect.poll(() => running(pid!)).toBe(false);
    await ctrlLInEditor(page, APP);
    await expect.poll(() => started(workspace), { timeout: 15_000 }).toHaveLength(2);
    await expect(pane(page)).toBeVisible();
  });
});

test.describe('with an agent CLI that is not installed', () => {
  const ide = useTheia({ userSettings: { [AGENT_CONSENT_SETTING]: CONSENT_VERSION, 'openspace.agent.command': 'no-such-agent-cli' } });

  test('Ctrl+L says which CLI is missing and which setting chooses another; no dead terminal', async () => {
    const { page } = ide.theia;
    await ide.agent.ok('openspace.editor.open', { path: APP, line: 1 });
    await ctrlLInEditor(page, APP);
    await expect(page.locator('.theia-notification-toasts .theia-notification-list-item')).toContainText(
      'The agent CLI "no-such-agent-cli" was not found on PATH. Install it, or choose another in the setting openspace.agent.command.',
    );
    await expect(pane(page)).toHaveCount(0);
  });
});
