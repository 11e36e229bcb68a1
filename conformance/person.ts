/** What a person at the IDE does, for the specs that need a person's hand: the simulated IDE's probe, or keys in Theia's page. */
import { expect, type TestContext } from 'vitest';
import { eventually, type TargetContext } from './setup.js';

/** In Theia: put the keyboard focus in the editor the person sees (hidden tabs have editors too). */
export async function focusVisibleEditor(ctx: TargetContext): Promise<void> {
  // Monaco takes keyboard input in an EditContext element where the browser has one, else in its textarea.
  await ctx.target.page!.evaluate(`(() => {
    const editor = [...document.querySelectorAll('.monaco-editor')].find((e) => e.offsetParent !== null);
    (editor?.querySelector('.native-edit-context') ?? editor?.querySelector('textarea'))?.focus();
  })()`);
}

/**
 * A person types into the open editor of `path`, leaving unsaved changes. In Theia, whose browser
 * app saves 1 s after the last keystroke, they keep typing until the returned stop() is called.
 */
export async function personTypes(ctx: TargetContext, t: TestContext, path: string, text: string): Promise<() => Promise<void>> {
  let stop = async () => {};
  if (ctx.target.sim) {
    ctx.target.sim.editors.personEdits(path, text);
  } else if (ctx.target.page) {
    const page = ctx.target.page;
    await ctx.agent.ok('openspace.editor.open', { path, line: 1 });
    await focusVisibleEditor(ctx);
    await page.keyboard.type(text);
    let typing = true;
    const keepTyping = (async () => {
      while (typing) {
        await page.keyboard.type('.');
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    stop = async () => {
      typing = false;
      await keepTyping;
    };
  } else {
    t.skip("needs a person's edit: only the simulated IDE and Theia offer one");
  }
  try {
    await eventually(async () => expect((await ctx.agent.ok('openspace.editor.read_file', { path })).isDirty).toBe(true));
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}

/** The person takes back the last change in the editor of `path` (Ctrl+Z). */
export async function personUndoes(ctx: TargetContext, t: TestContext, path: string): Promise<void> {
  if (ctx.target.sim) {
    expect(ctx.target.sim.editors.personUndoes(path)).toBe(true);
  } else if (ctx.target.page) {
    await ctx.agent.ok('openspace.editor.open', { path });
    await focusVisibleEditor(ctx);
    await ctx.target.page.keyboard.press('ControlOrMeta+z');
  } else {
    t.skip("needs a person's Ctrl+Z: only the simulated IDE and Theia offer one");
  }
}

/** Wait until the diff of a proposal shows, then the person clicks Accept or Reject above it. */
export async function personDecides(
  ctx: TargetContext,
  t: TestContext,
  proposalId: string,
  accept: boolean,
  which: { path?: string; hunk?: number } = {},
): Promise<void> {
  const { sim, page } = ctx.target;
  const shown = (v: { proposalId: string; path: string }) =>
    v.proposalId === proposalId && (which.path === undefined || v.path === which.path);
  if (sim) {
    await eventually(() => expect(sim.review.views().some(shown)).toBe(true));
    sim.review.personDecides(proposalId, accept, which);
  } else if (page) {
    // The diff tab of the proposal's file, then the bar above the hunk or the button in its toolbar.
    const name = which.path?.split('/').pop() ?? '';
    const tab = page.locator('.lm-TabBar-tab', { hasText: `${name} ↔ proposed (${proposalId})` }).first();
    await tab.waitFor({ timeout: 10_000 });
    await tab.click();
    // The pointer leaves the tab for the diff below, as a person's does: left on the tab, its hover
    // (the proposal's title) comes up half a second later over the first hunk's buttons, and on a
    // busy machine the click below came after it (found with two Theia spec files at a time).
    const viewport = page.viewportSize();
    if (viewport) await page.mouse.move(viewport.width / 2, viewport.height - 60);
    const button =
      which.hunk === undefined
        ? page.locator(`[id="openspace.review.${accept ? 'accept' : 'reject'}"]`)
        : page.locator(`.openspace-hunk-bar[data-hunk="${which.hunk}"]:visible .openspace-hunk-${accept ? 'accept' : 'reject'}`);
    await button.first().click();
  } else {
    t.skip("needs a person's decision: only the simulated IDE and Theia offer one");
  }
}

/** The person opens a file themselves (in Theia: Go → Go to File…, which works wherever the keyboard focus is). */
export async function personOpens(ctx: TargetContext, t: TestContext, path: string): Promise<void> {
  const { sim, page } = ctx.target;
  if (sim) return sim.editors.personOpens(path);
  if (!page) return void t.skip("needs a person's hand: only the simulated IDE and Theia offer one");
  await page.locator('.lm-MenuBar-itemLabel', { hasText: /^Go$/ }).click();
  await page.locator('.lm-Menu-itemLabel', { hasText: 'Go to File' }).click();
  // Into Quick Open's own box: on a busy window, keys typed at the page could reach the editor that
  // last had the focus instead (and replace what the person had selected there).
  await page.locator('.quick-input-widget .quick-input-box input').pressSequentially(path);
  // The file's own row, once the search has found it (the first row may still be a recent file).
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: path.split('/').pop()! })
    .first()
    .click();
}

/** The person types a line at the top of the open editor of `path` and saves it (Ctrl+S). */
export async function personEditsAndSaves(ctx: TargetContext, t: TestContext, path: string, line: string): Promise<void> {
  const { sim, page } = ctx.target;
  if (sim) {
    sim.editors.personEdits(path, `${line}\n${sim.editors.text(path) ?? ''}`);
    return sim.editors.personSaves(path);
  }
  if (!page) return void t.skip("needs a person's hand: only the simulated IDE and Theia offer one");
  await page.locator(`.theia-editor[id*="/${path}"] .view-lines`).first().click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.type(`${line}\n`);
  await page.keyboard.press('ControlOrMeta+s');
}

/** The person moves the cursor down `moves` times in the editor of `path`, `gapMs` apart. */
export async function personMovesCursor(ctx: TargetContext, t: TestContext, path: string, moves: number, gapMs: number): Promise<void> {
  const { sim, page } = ctx.target;
  if (!sim && !page) return void t.skip("needs a person's hand: only the simulated IDE and Theia offer one");
  if (page) await page.locator(`.theia-editor[id*="/${path}"] .view-lines`).first().click();
  for (let i = 1; i <= moves; i++) {
    if (sim) await sim.editors.personSelects(path, { line: i + 1, column: 1 }, { line: i + 1, column: 1 });
    else await page!.keyboard.press('ArrowDown');
    await new Promise((r) => setTimeout(r, gapMs));
  }
}
