import { expect, test, type Page } from '@playwright/test';
import { useTheia } from './theia-session.js';

const ide = useTheia();
const DECK = 'talks/intro.deck.md';
const SLIDES = [
  '# Welcome\n\nTo OpenSpace.',
  '## The hub\n\nMCP in.',
  '## The bridge\n\nCommands across.',
  '## The IDE\n\nTheia.',
  '## Questions',
];

const SHOWN_TITLE = `[id="openspace:presentation:${DECK}"] .slides > section.present :is(h1, h2)`;
/** The title reveal.js shows now in the deck's tab. */
const shownTitle = (page: Page) => page.locator(SHOWN_TITLE);

/**
 * From now on, every title the deck's tab shows, in order, the one shown now first: recorded in the
 * window as reveal.js changes the slide, so a slide shown for less than a check's interval is seen too.
 */
async function recordShownTitles(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate((selector) => {
    const title = () => document.querySelector(selector)?.textContent ?? '';
    const shown = [title()];
    (window as unknown as { shownTitles: string[] }).shownTitles = shown;
    new MutationObserver(() => {
      const now = title();
      if (now && now !== shown.at(-1)) shown.push(now);
    }).observe(document.querySelector(selector)!.closest('.slides')!, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }, SHOWN_TITLE);
  return () => page.evaluate(() => (window as unknown as { shownTitles: string[] }).shownTitles);
}

test('the agent creates a 5-slide deck and opens it beside the code: slide 1 shows, in reveal.js', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.presentation.create', { deckPath: DECK, title: 'Intro', slides: SLIDES, theme: 'white' });
  await ide.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
  const opened = await ide.agent.ok('openspace.presentation.open', { deckPath: DECK, splitDirection: 'vertical' });
  expect(opened).toMatchObject({ opened: true, slideIndex: 0, slideTitle: 'Welcome', slideCount: 5 });
  await expect(shownTitle(page)).toHaveText('Welcome');
  await expect(page.locator(`[id="openspace:presentation:${DECK}"] .reveal.ready`)).toBeVisible();
  await expect(page.locator('#openspace-reveal-theme')).toHaveAttribute('href', 'reveal-themes/white.css');
  await page.screenshot({ path: 'reports/screenshots/presentation-beside-code.png' });
});

test('navigate to slide 3 shows it; an update of the visible slide re-renders it without another call', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.presentation.navigate', { deckPath: DECK, slideIndex: 2 });
  await expect(shownTitle(page)).toHaveText('The bridge');
  await ide.agent.ok('openspace.presentation.update_slide', {
    deckPath: DECK,
    slideIndex: 2,
    content: '## The bridge, rebuilt\n\n- over RPC',
  });
  await expect(shownTitle(page)).toHaveText('The bridge, rebuilt');
  await expect(page.locator(`[id="openspace:presentation:${DECK}"] .slides > section.present li`)).toHaveText('over RPC');
});

test('a person navigates with the arrow keys, and the agent sees where they are', async () => {
  const { page } = ide.theia;
  await page.locator(`[id="openspace:presentation:${DECK}"]`).click();
  await page.keyboard.press('ArrowRight');
  await expect(shownTitle(page)).toHaveText('The IDE');
  await expect.poll(async () => (await ide.agent.ok('openspace.presentation.read', { deckPath: DECK })).slideIndex).toBe(3);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(shownTitle(page)).toHaveText('The hub');
  await expect.poll(async () => (await ide.agent.ok('openspace.presentation.read', { deckPath: DECK })).slideTitle).toBe('The hub');
});

test('play advances by itself, without a call, and stops on the last slide', async () => {
  const { page } = ide.theia;
  const shown = await recordShownTitles(page);
  const playing = await ide.agent.ok('openspace.presentation.play', { deckPath: DECK, intervalMs: 700 });
  expect(playing).toMatchObject({ playback: 'playing', slideIndex: 1 });
  await expect(shownTitle(page)).toHaveText('Questions', { timeout: 8000 });
  // Each slide in turn, none skipped (a check every second could miss one shown for 700 ms).
  expect(await shown()).toEqual(['The hub', 'The bridge, rebuilt', 'The IDE', 'Questions']);
  await expect
    .poll(async () => ide.agent.ok('openspace.presentation.read', { deckPath: DECK }))
    .toMatchObject({ slideIndex: 4, playback: 'stopped' });
  await ide.agent.ok('openspace.presentation.stop', { deckPath: DECK });
  await expect(shownTitle(page)).toHaveText('Welcome');
  await page.screenshot({ path: 'reports/screenshots/presentation-stopped.png' });
});

test('a person opening the deck from Quick Open gets the presentation, not the markdown', async () => {
  const { page } = ide.theia;
  await ide.agent.ok('openspace.pane.close', { contentId: DECK });
  await page.keyboard.press('ControlOrMeta+p');
  await page.keyboard.type('intro.deck.md');
  // As a person does: Enter once the deck is the highlighted row (the list refills as the search answers;
  // an Enter before that picks nothing, and nothing opens).
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'intro.deck.md' }).waitFor();
  await page.keyboard.press('Enter');
  await expect(shownTitle(page)).toHaveText('Welcome');
  const { panes } = await ide.agent.ok('openspace.pane.list');
  const tab = panes
    .flatMap((p: { tabs: { contentId: string; type: string }[] }) => p.tabs)
    .find((t: { contentId: string }) => t.contentId === DECK);
  expect(tab).toMatchObject({ type: 'presentation' });
});
