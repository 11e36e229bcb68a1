import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { connectAgent, type Agent } from '../../conformance/client.js';
import { startTheiaTarget, type TheiaTarget, type TheiaTargetOptions } from '../../conformance/theia-target.js';

export const FIXTURE = fileURLToPath(new URL('../../conformance/fixtures/workspace', import.meta.url));

/**
 * One Theia for a spec file, its tests run in order: started on the fixture workspace before them,
 * with an agent connected as "e2e-agent" (the name the consent dialog and notifications show), and
 * both closed after them.
 */
export function useTheia(options: TheiaTargetOptions = {}): { readonly theia: TheiaTarget; readonly agent: Agent } {
  let theia: TheiaTarget | undefined;
  let agent: Agent | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    theia = await startTheiaTarget(FIXTURE, options);
    agent = await connectAgent(theia, 'e2e-agent');
  });
  test.afterAll(async () => {
    await agent?.close();
    await theia?.close();
  });
  return {
    get theia() {
      if (!theia) throw new Error('Theia has not started');
      return theia;
    },
    get agent() {
      if (!agent) throw new Error('no agent is connected');
      return agent;
    },
  };
}

/** The chat panel opened as a person does (Ctrl+Alt+I, again if the first press came too early), with `agent` picked. */
export async function openChatWith(page: Page, agent: string): Promise<void> {
  const panel = page.locator('#openspace-chat');
  await expect(async () => {
    if (await panel.isHidden()) {
      await page.locator('#theia-main-content-panel').click();
      await page.keyboard.press('Control+Alt+i');
    }
    await expect(panel.getByLabel('Chat with')).toBeVisible({ timeout: 20_000 });
  }).toPass({ timeout: 60_000 });
  await panel.getByLabel('Chat with').selectOption(agent);
  await expect(panel.locator('textarea')).toHaveAttribute('placeholder', new RegExp(`^Ask ${agent}…`), { timeout: 60_000 });
}
