import { expect, test } from '@playwright/test';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAgent, type Agent } from '../../conformance/client.js';
import { startTheiaTarget, type TheiaTarget } from '../../conformance/theia-target.js';
import { FIXTURE } from './theia-session.js';

/**
 * The debugger as a person sees it in Theia: the agent's breakpoint in the gutter, the program
 * stopped at it (the editor at the line, the call stack and the variables in the Debug view), the
 * person stepping once with F10, and the agent's debug.wait seeing the line the person reached.
 */
test.describe.configure({ mode: 'serial' });

const PROGRAM = 'dbg/cart.py';
const CART = `def price(item):
    return item["price"] * item["qty"]


def total(items):
    acc = 0
    for i, item in enumerate(items):
        acc += price(item)
    return acc


print(total([{"price": 3, "qty": 2}, {"price": 5, "qty": "4"}]))
`;

let fixture: string;
let theia: TheiaTarget;
let agent: Agent;

test.beforeAll(async () => {
  fixture = mkdtempSync(join(tmpdir(), 'openspace-debug-fixture-'));
  cpSync(FIXTURE, fixture, { recursive: true });
  mkdirSync(join(fixture, 'dbg'), { recursive: true });
  writeFileSync(join(fixture, PROGRAM), CART);
  theia = await startTheiaTarget(fixture);
  agent = await connectAgent(theia, 'e2e-agent');
});

test.afterAll(async () => {
  await agent?.close();
  await theia?.close();
  rmSync(fixture, { recursive: true, force: true });
});

test("the person sees the agent's breakpoint and where the program stopped, steps once, and the agent sees the new line", async () => {
  const { page } = theia;
  const bp = await agent.ok('openspace.debug.breakpoint.set', { path: PROGRAM, line: 8 });
  // Up to 30 s for the first stop, for a busy machine (the default is 10).
  const state = await agent.ok('openspace.debug.start', { program: PROGRAM, waitMs: 30_000 });
  expect(state).toMatchObject({ status: 'stopped', stop: { reason: 'breakpoint' } });
  expect(state.stop.frames[0]).toMatchObject({ path: PROGRAM, line: 8, name: 'total' });

  // Theia opens the file at the stopped line, the breakpoint in its gutter; the Debug view shows the stack and the locals.
  const editor = page.locator('.theia-editor', { has: page.locator('.monaco-editor') }).filter({ visible: true });
  await expect(page.locator('.lm-TabBar-tab.theia-mod-active', { hasText: 'cart.py' })).toBeVisible({ timeout: 20_000 });
  await expect(editor.locator('.theia-debug-top-stack-frame-line')).toBeVisible({ timeout: 10_000 });
  await expect(editor.locator('.codicon-debug-breakpoint')).toHaveCount(1);
  await expect(page.locator('#theia-statusBar')).toContainText('Ln 8');
  const debugView = page.locator('#debug');
  await expect(debugView).toBeVisible({ timeout: 10_000 });
  await expect(debugView.locator('.theia-debug-stack-frame', { hasText: 'total' }).first()).toBeVisible({ timeout: 10_000 });
  await expect(debugView).toContainText("'qty': 2");
  await page.screenshot({ path: 'reports/screenshots/debugger.png' });

  // The person steps over the line (F10, as in VS Code); the agent's next look at the program is where the step ended.
  await editor.locator('.monaco-editor').first().click();
  await page.keyboard.press('F10');
  // Asked at once, while the step may still be on its way: the answer is where it ended, never the stop it left.
  const after = await agent.ok('openspace.debug.wait', { sessionId: state.sessionId });
  expect(after).toMatchObject({ status: 'stopped', stop: { reason: 'step' } });
  expect(after.stop.frames[0]).toMatchObject({ path: PROGRAM, line: 7 });
  await expect(page.locator('#theia-statusBar')).toContainText('Ln 7', { timeout: 10_000 });
  expect(after.stop.locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'acc', value: '6' })]));
  await agent.ok('openspace.debug.stop', { sessionId: state.sessionId });
  await agent.ok('openspace.debug.breakpoint.remove', { id: bp.id });
  await expect(editor.locator('.codicon-debug-breakpoint')).toHaveCount(0);
  // The debugger's window side and the backend agree on what they say to each other: no call the backend cannot take.
  expect(theia.backendErrors().filter((line) => line.includes('is not a function'))).toEqual([]);
});
