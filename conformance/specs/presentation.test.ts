/**
 * Presentations (issue 12; TECHSPEC §5.2, §6.5; US-3.4): decks as .deck.md files through the
 * artifact store, shown as slides. Effects are checked through other tools (file.read, pane.list)
 * and through the IDE's own view: the simulated IDE's deck state, Theia's reveal.js DOM.
 */
import { describe, expect, it } from 'vitest';
import { parseDeck, serializeDeck, withSlide } from '../../src/models/deck.js';
import { personTypes } from '../person.js';
import { eventually, useTarget } from '../setup.js';

const ctx = useTarget();

const FIVE = [
  '# Why\n\nBecause.',
  '## How\n\n- one\n- two',
  '## Where\n\nHere.\n\nNote:\nSay it slowly.',
  '## When\n\nNow.',
  '## Done\n\nThanks.',
];

let decks = 0;
/** A fresh 5-slide deck per test (specs share one IDE on Theia). */
async function fiveSlides(): Promise<string> {
  const deckPath = `talks/five-${++decks}.deck.md`;
  await ctx.agent.ok('openspace.presentation.create', { deckPath, title: 'Five', slides: FIVE });
  return deckPath;
}

/** The slide title the IDE itself shows: the simulated IDE's deck state, or the text of reveal.js's present slide. */
async function shownTitle(deckPath: string): Promise<string | undefined> {
  const sim = ctx.target.sim;
  if (sim) {
    const view = sim.presentations.view(deckPath);
    if (!view) return undefined;
    const { content } = await ctx.agent.ok('openspace.file.read', { path: deckPath });
    return parseDeck(content)
      .segments[view.slideIndex]!.content.split('\n')[0]!
      .replace(/^#+\s*/, '');
  }
  const page = ctx.target.page;
  if (!page) return undefined;
  const present = page.locator(`[id="openspace:presentation:${deckPath}"] .reveal .slides > section.present :is(h1, h2, h3)`).first();
  return (await present.count()) > 0 ? ((await present.textContent()) ?? undefined) : undefined;
}

async function tabOf(contentId: string) {
  const { panes } = await ctx.agent.ok('openspace.pane.list');
  for (const pane of panes as { id: string; tabs: { contentId: string; type: string }[] }[]) {
    const tab = pane.tabs.find((t) => t.contentId === contentId);
    if (tab) return { paneId: pane.id, ...tab };
  }
  return undefined;
}

describe('US-3.4 agent creates a presentation and opens it', () => {
  it('creates a template deck without slides, then opens it showing slide 1 (AC-3.4.1–3.4.4)', async () => {
    const created = await ctx.agent.ok('openspace.presentation.create', { deckPath: 'arch.deck.md', title: 'Architecture Overview' });
    expect(created).toMatchObject({ deckPath: 'arch.deck.md', slideCount: 4 });
    const file = await ctx.agent.ok('openspace.file.read', { path: 'arch.deck.md' });
    expect(file.content).toMatch(/^---\ntitle: Architecture Overview\ntheme: black\n---\n\n# Architecture Overview\n/);
    expect(file.version).toBe(created.version);

    const opened = await ctx.agent.ok('openspace.presentation.open', { deckPath: 'arch.deck.md' });
    expect(opened).toMatchObject({ opened: true, slideIndex: 0, slideCount: 4, slideTitle: 'Architecture Overview', playback: 'stopped' });
    expect(await tabOf('arch.deck.md')).toMatchObject({ type: 'presentation', paneId: opened.paneId });
    await eventually(async () => expect(await shownTitle('arch.deck.md')).toBe('Architecture Overview'));
    await ctx.agent.ok('openspace.pane.close', { contentId: 'arch.deck.md' });
  });

  it('reads every slide with its title and notes, and the view state when open', async () => {
    const deckPath = await fiveSlides();
    const closed = await ctx.agent.ok('openspace.presentation.read', { deckPath });
    expect(closed).toMatchObject({ title: 'Five', theme: 'black', slideCount: 5, open: false });
    expect(closed.slides.map((s: { title: string }) => s.title)).toEqual(['Why', 'How', 'Where', 'When', 'Done']);
    expect(closed.slides[2]).toMatchObject({ index: 2, notes: 'Say it slowly.', content: FIVE[2] });
    await ctx.agent.ok('openspace.presentation.open', { deckPath, slideIndex: 1 });
    expect(await ctx.agent.ok('openspace.presentation.read', { deckPath })).toMatchObject({ open: true, slideIndex: 1, slideTitle: 'How' });
    await ctx.agent.ok('openspace.pane.close', { contentId: deckPath });
  });

  it('lists the decks of the workspace with their titles, slide counts and whether they are open', async () => {
    const deckPath = await fiveSlides();
    await ctx.agent.ok('openspace.presentation.open', { deckPath, slideIndex: 3 });
    const { decks: listed } = await ctx.agent.ok('openspace.presentation.list');
    expect(listed).toContainEqual({ deckPath, title: 'Five', slideCount: 5, open: true, slideIndex: 3 });
    await ctx.agent.ok('openspace.pane.close', { contentId: deckPath });
    const after = await ctx.agent.ok('openspace.presentation.list');
    expect(after.decks.find((d: { deckPath: string }) => d.deckPath === deckPath)).toMatchObject({ open: false });
  });

  it('navigates to a slide the IDE then shows; a slide past the end is SLIDE_NOT_FOUND and changes nothing', async () => {
    const deckPath = await fiveSlides();
    const shown = await ctx.agent.ok('openspace.presentation.navigate', { deckPath, slideIndex: 2 });
    expect(shown).toMatchObject({ opened: true, slideIndex: 2, slideTitle: 'Where', slideCount: 5 });
    await eventually(async () => expect(await shownTitle(deckPath)).toBe('Where'));
    const refused = await ctx.agent.fails('openspace.presentation.navigate', { deckPath, slideIndex: 5 }, 'SLIDE_NOT_FOUND');
    expect(refused).toMatchObject({ slideCount: 5 });
    expect(refused.error).toMatch(/5 slides/);
    expect(await ctx.agent.ok('openspace.presentation.read', { deckPath })).toMatchObject({ slideIndex: 2 });
    const again = await ctx.agent.ok('openspace.presentation.open', { deckPath });
    expect(again).toMatchObject({ opened: false, slideIndex: 2 });
    await ctx.agent.ok('openspace.pane.close', { contentId: deckPath });
  });

  it('updates one slide: only its bytes change, the open view shows it, and the version moves on', async () => {
    const deckPath = await fiveSlides();
    await ctx.agent.ok('openspace.presentation.navigate', { deckPath, slideIndex: 1 });
    const before = await ctx.agent.ok('openspace.file.read', { path: deckPath });
    const updated = await ctx.agent.ok('openspace.presentation.update_slide', {
      deckPath,
      slideIndex: 1,
      content: '## How, really\n\n- three',
      baseVersion: before.version,
    });
    const after = await ctx.agent.ok('openspace.file.read', { path: deckPath });
    expect(updated).toMatchObject({ slideIndex: 1, slideCount: 5, version: after.version });
    expect(after.content).toBe(serializeDeck(withSlide(parseDeck(before.content), 1, '## How, really\n\n- three')));
    expect(after.content).toBe(before.content.replace('## How\n\n- one\n- two', '## How, really\n\n- three'));
    await eventually(async () => expect(await shownTitle(deckPath)).toBe('How, really'));

    const stale = await ctx.agent.fails(
      'openspace.presentation.update_slide',
      { deckPath, slideIndex: 0, content: '# Lost', baseVersion: before.version },
      'CONFLICT',
    );
    expect(stale).toMatchObject({ currentVersion: after.version });
    await ctx.agent.fails('openspace.presentation.update_slide', { deckPath, slideIndex: 7, content: '# Nope' }, 'SLIDE_NOT_FOUND');
    const split = await ctx.agent.fails(
      'openspace.presentation.update_slide',
      { deckPath, slideIndex: 0, content: '# A\n---\n# B' },
      'INVALID_ARGUMENT',
    );
    expect(split.error).toMatch(/new slide/);
    const openFence = await ctx.agent.fails(
      'openspace.presentation.update_slide',
      { deckPath, slideIndex: 0, content: '# Code\n\n```ts\nconst a = 1;' },
      'INVALID_ARGUMENT',
    );
    expect(openFence.error).toMatch(/code fence/);
    expect((await ctx.agent.ok('openspace.file.read', { path: deckPath })).content).toBe(after.content);
    await ctx.agent.ok('openspace.pane.close', { contentId: deckPath });
  });

  it('refuses to update a deck a person is editing as text with unsaved changes (DIRTY_BUFFER) unless force', async (t) => {
    const deckPath = await fiveSlides();
    // "Open With → text editor": the person edits the deck's markdown.
    await ctx.agent.ok('openspace.editor.open', { path: deckPath });
    const stopTyping = await personTypes(ctx, t, deckPath, 'typed by a person ');
    try {
      const refused = await ctx.agent.fails(
        'openspace.presentation.update_slide',
        { deckPath, slideIndex: 0, content: '# Agent' },
        'DIRTY_BUFFER',
      );
      expect(refused.error).toMatch(/force/);
    } finally {
      await stopTyping();
    }
    await ctx.agent.ok('openspace.presentation.update_slide', { deckPath, slideIndex: 0, content: '# Agent', force: true });
    expect((await ctx.agent.ok('openspace.presentation.read', { deckPath })).slides[0].title).toBe('Agent');
    await ctx.agent.ok('openspace.editor.close', { path: deckPath, force: true });
  });

  it('plays without further calls and stops on the last slide; pause keeps the slide, stop returns to the first', async () => {
    const deckPath = await fiveSlides();
    await ctx.agent.ok('openspace.presentation.open', { deckPath, slideIndex: 2 });
    const playing = await ctx.agent.ok('openspace.presentation.play', { deckPath, intervalMs: 500 });
    expect(playing).toMatchObject({ playback: 'playing', intervalMs: 500, slideIndex: 2 });
    await eventually(
      async () => expect(await ctx.agent.ok('openspace.presentation.read', { deckPath })).toMatchObject({ slideIndex: 3 }),
      3000,
    );
    await eventually(
      async () =>
        expect(await ctx.agent.ok('openspace.presentation.read', { deckPath })).toMatchObject({ slideIndex: 4, playback: 'stopped' }),
      3000,
    );
    await eventually(async () => expect(await shownTitle(deckPath)).toBe('Done'));

    // Played from the end it starts over; paused, it stays.
    expect(await ctx.agent.ok('openspace.presentation.play', { deckPath, intervalMs: 60_000 })).toMatchObject({
      slideIndex: 0,
      playback: 'playing',
    });
    await ctx.agent.ok('openspace.presentation.navigate', { deckPath, slideIndex: 3 });
    expect(await ctx.agent.ok('openspace.presentation.pause', { deckPath })).toMatchObject({ slideIndex: 3, playback: 'paused' });
    expect(await ctx.agent.ok('openspace.presentation.stop', { deckPath })).toMatchObject({
      slideIndex: 0,
      playback: 'stopped',
      slideTitle: 'Why',
    });
    await eventually(async () => expect(await shownTitle(deckPath)).toBe('Why'));
    await ctx.agent.ok('openspace.pane.close', { contentId: deckPath });
    await ctx.agent.fails('openspace.presentation.pause', { deckPath }, 'PANE_NOT_FOUND');
    await ctx.agent.fails('openspace.presentation.stop', { deckPath }, 'PANE_NOT_FOUND');
  });

  it('opens beside the code with splitDirection, and through pane.open {type:"presentation"}', async () => {
    const deckPath = await fiveSlides();
    await ctx.agent.ok('openspace.editor.open', { path: 'src/index.ts' });
    const code = (await tabOf('src/index.ts'))!.paneId;
    const beside = await ctx.agent.ok('openspace.presentation.open', { deckPath, splitDirection: 'vertical' });
    expect(beside.paneId).not.toBe(code);
    expect(await tabOf(deckPath)).toMatchObject({ paneId: beside.paneId, type: 'presentation' });
    await ctx.agent.ok('openspace.pane.close', { contentId: deckPath });
    const viaPane = await ctx.agent.ok('openspace.pane.open', { type: 'presentation', contentId: deckPath });
    expect(await tabOf(deckPath)).toMatchObject({ paneId: viaPane.paneId, type: 'presentation' });
    await ctx.agent.fails('openspace.pane.open', { type: 'presentation', contentId: 'src/index.ts' }, 'INVALID_ARGUMENT');
    await ctx.agent.ok('openspace.pane.close', { contentId: deckPath });
    await ctx.agent.ok('openspace.editor.close', { path: 'src/index.ts' });
  });

  it('answers clear errors: an existing file, a path that is not a deck, a missing deck, a slide that would split', async () => {
    const deckPath = await fiveSlides();
    const before = await ctx.agent.ok('openspace.file.read', { path: deckPath });
    await ctx.agent.fails('openspace.presentation.create', { deckPath, title: 'Again' }, 'ALREADY_EXISTS');
    expect((await ctx.agent.ok('openspace.file.read', { path: deckPath })).version).toBe(before.version);
    await ctx.agent.fails('openspace.presentation.create', { deckPath: 'talks/slides.md', title: 'X' }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.presentation.read', { deckPath: 'talks/missing.deck.md' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.presentation.open', { deckPath: 'talks/missing.deck.md' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.presentation.create', { deckPath: '../outside.deck.md', title: 'X' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails(
      'openspace.presentation.create',
      { deckPath: 'talks/split.deck.md', title: 'X', slides: ['# A\n\n---\n\n# B'] },
      'INVALID_ARGUMENT',
    );
    await ctx.agent.fails('openspace.file.read', { path: 'talks/split.deck.md' }, 'FILE_NOT_FOUND');
  });
});
