import { expect, test, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectAgent, type Agent } from '../../conformance/client.js';
import { startTheiaTarget, waitForBridge, type TheiaTarget } from '../../conformance/theia-target.js';

/**
 * What a person sees of the agent in Theia: the consent dialog (NFR-3.8.2), notifications of failed
 * agent commands (NFR-3.8.1), their own sensitive-file patterns (§17.4) and tabs they pinned.
 * Theia starts here WITHOUT the consent the other specs preconfigure.
 */

const FIXTURE = fileURLToPath(new URL('../../conformance/fixtures/workspace', import.meta.url));
const SENSITIVE = 'openspace.security.sensitiveFilePatterns';
const PROTECTED = 'openspace.security.protectedFilePatterns';
const shot = (page: Page, name: string) => page.screenshot({ path: `reports/theia-${name}.png` });

let fixture: string;
let theia: TheiaTarget;
let agent: Agent;
let otherAgent: Agent;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  fixture = await mkdtemp(join(tmpdir(), 'openspace-e2e-security-'));
  await cp(FIXTURE, fixture, { recursive: true });
  await mkdir(join(fixture, '.theia'));
  // A repository's settings: one that tightens protection (applies) and one that loosens it (ignored).
  await writeFile(
    join(fixture, '.theia', 'settings.json'),
    JSON.stringify({ [SENSITIVE]: ['*.secret'], 'openspace.security.confirmDangerousCommands': false }),
  );
  await writeFile(join(fixture, 'a.secret'), 'the launch code\n');
  theia = await startTheiaTarget(fixture, { userSettings: { 'openspace.notifications.commandFailures': 'all' } });
  agent = await connectAgent(theia, 'e2e-agent');
  otherAgent = await connectAgent(theia, 'e2e-agent');
});

test.afterAll(async () => {
  await agent?.close();
  await otherAgent?.close();
  await theia?.close();
  if (fixture) await rm(fixture, { recursive: true, force: true });
});

const consentDialog = (page: Page) => page.locator('.dialogBlock', { hasText: 'allow an AI agent to control this IDE' });

/** Reload the window (a new window session) and wait until it serves the hub again. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect(page.locator('#theia-app-shell')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.theia-preload')).toHaveCount(0, { timeout: 60_000 });
  await waitForBridge(theia.origin, theia.token);
}

/**
 * Save the workspace settings as an editor does, whole (a temporary file renamed over it): written in
 * place, Theia may read it half written, empty, and take no protected patterns for a moment.
 */
async function saveSettings(path: string, text: string): Promise<void> {
  await writeFile(`${path}.saving`, text);
  await rename(`${path}.saving`, path);
}

test('the first agent command asks for consent, once for calls waiting together; Cancel refuses them', async () => {
  const { page } = theia;
  const dialog = consentDialog(page);
  const first = agent.call('openspace.pane.list');
  const second = otherAgent.call('openspace.pane.list');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('"e2e-agent" wants to control your IDE');
  await expect(dialog).toContainText('create terminals and run commands');
  await expect(dialog.getByText("Don't show this again")).toBeVisible();
  await page.waitForTimeout(500); // both calls have reached the window
  await expect(dialog).toHaveCount(1);
  await shot(page, 'consent');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const cancelled = Date.now();
  expect((await first).code).toBe('CONSENT_REQUIRED');
  expect((await second).code).toBe('CONSENT_REQUIRED');
  expect(Date.now() - cancelled).toBeLessThan(3000);
  await expect(dialog).toHaveCount(0);
  // The person just refused: no notification repeats it.
  await expect(page.locator('.theia-notification-toasts .theia-notification-message', { hasText: 'CONSENT_REQUIRED' })).toHaveCount(0);
});

test('Allow runs the call; later calls in this window are not asked again', async () => {
  const { page } = theia;
  const dialog = consentDialog(page);
  const allowed = agent.call('openspace.editor.open', { path: 'notes.txt' });
  await dialog.getByRole('button', { name: 'Allow' }).click();
  expect((await allowed).success).toBe(true);
  await expect(page.locator('.lm-TabBar-tab .lm-TabBar-tabLabel', { hasText: /^notes\.txt$/ })).toBeVisible();
  expect((await agent.call('openspace.pane.list')).success).toBe(true);
  expect((await otherAgent.call('openspace.pane.list')).success).toBe(true);
  await expect(dialog).toHaveCount(0);
});

test('"Don\'t show this again" is kept across window sessions; Allow alone is not', async () => {
  const { page } = theia;
  const dialog = consentDialog(page);
  await reload(page);
  const asked = agent.call('openspace.pane.list');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Allow' }).click();
  expect((await asked).success).toBe(true);

  await reload(page);
  expect((await agent.call('openspace.pane.list')).success).toBe(true);
  await expect(dialog).toHaveCount(0);
});

test('a workspace setting adds *.secret to the sensitive files: file.read answers SENSITIVE_FILE', async () => {
  const refused = await agent.call('openspace.file.read', { path: 'a.secret' });
  expect(refused.code).toBe('SENSITIVE_FILE');
  expect(refused.error).toContain('*.secret');
  const listed = await agent.ok('openspace.file.list', { path: '.' });
  expect(listed.files.find((f: { path: string }) => f.path === 'a.secret')?.sensitive).toBe(true);
});

test('a workspace setting cannot turn off the confirmation of dangerous commands: the person is still asked', async () => {
  const { page } = theia;
  await agent.ok('openspace.terminal.create', { title: 'guarded' });
  // Deleting the workspace: what the sandbox cannot give back.
  const text = 'rm -rf .';
  const dialog = page.locator('.dialogBlock', { hasText: `Agent wants to run: ${text}` });
  const denied = agent.call('openspace.terminal.send', { terminalId: 'guarded', text });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  expect((await denied).code).toBe('CONFIRMATION_DENIED');
  await agent.ok('openspace.terminal.close', { terminalId: 'guarded' });
});

test('a failed agent command shows a notification with its error (commandFailures: all)', async () => {
  const { page } = theia;
  const failed = await agent.call('openspace.file.read', { path: 'no-such-file.txt' });
  expect(failed.code).toBe('FILE_NOT_FOUND');
  const toast = page.locator('.theia-notification-toasts .theia-notification-message', { hasText: failed.error });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('openspace.file.read from e2e-agent failed (FILE_NOT_FOUND)');
  await shot(page, 'failure-notification');
});

test('an invalid pattern makes file commands fail with a clear error, not be ignored', async () => {
  const { page } = theia;
  const settings = join(theia.workspace, '.theia', 'settings.json');
  await saveSettings(settings, JSON.stringify({ [SENSITIVE]: ['*.secret', '/etc/passwd'] }));
  await expect.poll(async () => (await agent.call('openspace.file.list', { path: '.' })).code, { timeout: 20_000 }).toBe('INTERNAL');
  const failed = await agent.call('openspace.file.list', { path: '.' });
  expect(failed.error).toContain(`${SENSITIVE} in the workspace settings`);
  expect(failed.error).toContain('absolute path');
  await expect(page.locator('.theia-notification-toasts .theia-notification-message', { hasText: 'absolute path' }).first()).toBeVisible();
  await saveSettings(settings, JSON.stringify({ [SENSITIVE]: ['*.secret'] }));
  await expect.poll(async () => (await agent.call('openspace.file.list', { path: '.' })).success, { timeout: 20_000 }).toBe(true);
});

test('an invalid protected pattern fails terminal.send and terminal.create with the clear error the file tools give, until it is fixed', async () => {
  const settings = join(theia.workspace, '.theia', 'settings.json');
  await agent.ok('openspace.terminal.create', { title: 'writer' });
  await saveSettings(settings, JSON.stringify({ [PROTECTED]: ['/etc/passwd'] }));
  const write = { terminalId: 'writer', text: 'echo x > written.txt' };
  await expect.poll(async () => (await agent.call('openspace.terminal.send', write)).code, { timeout: 20_000 }).toBe('INTERNAL');
  const failed = await agent.call('openspace.terminal.send', write);
  expect(failed.error).toContain(`${PROTECTED} in the workspace settings`);
  expect(failed.error).toContain('absolute path');
  for (const [tool, args] of [
    ['openspace.file.list', { path: '.' }],
    ['openspace.terminal.send', { terminalId: 'writer', text: 'echo nothing written' }],
    // A sandbox made now would miss the person's protection: no new agent terminal either.
    ['openspace.terminal.create', { title: 'another' }],
  ] as const) {
    const refused = await agent.call(tool, args);
    expect(refused, tool).toMatchObject({ success: false, code: 'INTERNAL' });
    expect(refused.error, tool).toContain(`${PROTECTED} in the workspace settings`);
  }
  await saveSettings(settings, JSON.stringify({ [PROTECTED]: ['generated/**'] }));
  await expect.poll(async () => (await agent.call('openspace.terminal.send', write)).success, { timeout: 20_000 }).toBe(true);
  // The person's protected paths are read-only in the sandbox too.
  const generated = await agent.call('openspace.terminal.send', { terminalId: 'writer', text: 'echo x > generated/out.txt' });
  expect(generated).toMatchObject({ success: false, code: 'SANDBOX_READ_ONLY' });
  await agent.ok('openspace.terminal.close', { terminalId: 'writer' });
  await saveSettings(settings, JSON.stringify({ [SENSITIVE]: ['*.secret'] }));
});

test('a tab the person pinned is listed as pinned', async () => {
  const { page } = theia;
  await agent.ok('openspace.editor.open', { path: 'notes.txt' });
  const tab = page.locator('.lm-TabBar-tab', { has: page.locator('.lm-TabBar-tabLabel', { hasText: /^notes\.txt$/ }) });
  await tab.click({ button: 'right' });
  await page.locator('.lm-Menu-item .lm-Menu-itemLabel', { hasText: /^Pin$/ }).click({ timeout: 10_000 });
  const pinnedTabs = async () =>
    (await agent.ok('openspace.pane.list')).panes.flatMap((p: { tabs: { contentId: string; pinned?: boolean }[] }) =>
      p.tabs.filter((t) => t.pinned).map((t) => t.contentId),
    );
  await expect.poll(pinnedTabs).toEqual(['notes.txt']);
});

test('the terminal sanitizer runs in the Theia window as the frontend bundles it: no controls left, screen clears counted', async () => {
  const { page } = theia;
  // The sanitizer module as the frontend bundles it, loaded into the window (its security policy, its Chromium).
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../../src/security/sanitize.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'openspaceSanitize',
    write: false,
  });
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const result = await page.evaluate(() => {
    type Sanitizer = { write(chunk: string): string; suspicious: number };
    const { TerminalSanitizer } = (window as unknown as { openspaceSanitize: { TerminalSanitizer: new () => Sanitizer } })
      .openspaceSanitize;
    const ESC = '\x1b';
    let text = '';
    for (let i = 0; text.length < 4_000_000; i++) {
      text += `${ESC}[3${i % 8}mline ${i} ✓ 日本語${ESC}[0m ${ESC}]0;title ${i}\x07${ESC}[K${i % 97 === 0 ? `${ESC}[2J` : ''}${'x'.repeat(i % 40)}\r\n`;
    }
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 4096) chunks.push(text.slice(i, i + 4096));
    const sanitizer = new TerminalSanitizer();
    const t0 = performance.now();
    const out = chunks.map((c) => sanitizer.write(c)).join('');
    const mbps = text.length / 2 ** 20 / ((performance.now() - t0) / 1000);
    return {
      suspicious: sanitizer.suspicious,
      // \r and \v are the sanitizer's own marks (carriage return, erase to the end of the line) for the ring buffer.
      controlsLeft: /[\x00-\x07\x0c\x0e-\x1f\x7f-\x9f]/.test(out),
      erasesMarked: out.split('\v').length - 1,
      lines: out.split('\r\n').length,
      mbps: Math.round(mbps),
    };
  });
  console.log(`sanitizer in the Theia window: ${result.mbps} MB/s`);
  expect(result.controlsLeft).toBe(false);
  expect(result.erasesMarked).toBeGreaterThan(40_000);
  expect(result.suspicious).toBeGreaterThan(100);
  expect(result.lines).toBeGreaterThan(40_000);
});
