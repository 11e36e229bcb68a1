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
