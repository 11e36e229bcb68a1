import {
  DECK_SUFFIX,
  DEFAULT_INTERVAL_MS,
  presentationCreate,
  presentationList,
  presentationNavigate,
  presentationOpen,
  presentationPause,
  presentationPlay,
  presentationRead,
  presentationStop,
  presentationUpdateSlide,
} from './tools.js';
import { MAX_LIST_ENTRIES } from '../file/tools.js';
import { ToolError } from '../../contract/index.js';
import type { DeckView } from './port.js';
import type { IdePort } from '../index.js';
import type { Placement } from '../pane/port.js';
import { newDeck, parseDeck, serializeDeck, slideContentProblem, slides, withSlide, type Deck } from '../../models/deck.js';
import { defineCommand, defineNodeCommand } from '../../commands/command.js';
import { writeOptions, type FilesIde } from '../file/commands.js';
import { readArtifact, replaceArtifact, requireAbsent, type Artifact } from '../../commands/artifact.js';

interface LoadedDeck extends Artifact {
  deck: Deck;
}

async function loadDeck(ide: FilesIde, input: string): Promise<LoadedDeck> {
  const artifact = await readArtifact(ide, input);
  return { ...artifact, deck: parseDeck(artifact.text) };
}

function deckTitle(deck: Deck, path: string): string {
  const title = deck.options.title;
  if (typeof title === 'string' && title.trim()) return title;
  return slides(deck)[0]?.title || (path.split('/').pop() ?? path);
}

function requireSlide(deck: LoadedDeck, index: number): void {
  const count = deck.deck.segments.length;
  if (index >= count) {
    throw new ToolError(
      'SLIDE_NOT_FOUND',
      `${deck.path} has ${count} slide${count === 1 ? '' : 's'} (0–${count - 1}); there is no slide ${index}.`,
      { slideCount: count },
    );
  }
}

function requireView(ide: IdePort, path: string): DeckView {
  const view = ide.presentations.view(path);
  if (!view) {
    throw new ToolError('PANE_NOT_FOUND', `${path} is not open; show it with openspace.presentation.open first.`);
  }
  return view;
}

/** Where an open deck is, as the tools that show it answer. */
function viewState(ide: IdePort, loaded: LoadedDeck) {
  const view = requireView(ide, loaded.path);
  const shown = slides(loaded.deck)[view.slideIndex];
  return {
    deckPath: loaded.path,
    slideCount: loaded.deck.segments.length,
    slideIndex: view.slideIndex,
    slideTitle: shown?.title ?? '',
    playback: view.playback,
    intervalMs: view.intervalMs,
    paneId: view.paneId,
  };
}

/** Show the deck at a slide, opening it if no tab shows it; returns whether this opened a tab. */
async function show(ide: IdePort, loaded: LoadedDeck, slideIndex: number | undefined, placement: Placement = {}): Promise<boolean> {
  const view = ide.presentations.view(loaded.path);
  if (slideIndex !== undefined) requireSlide(loaded, slideIndex);
  if (view && placement.splitDirection === undefined && placement.targetPaneId === undefined) {
    await ide.presentations.open(loaded.path, { slideIndex: slideIndex ?? view.slideIndex });
    return false;
  }
  await ide.presentations.open(loaded.path, { slideIndex: slideIndex ?? view?.slideIndex ?? 0, placement: { area: 'main', ...placement } });
  return view === undefined;
}

export const presentationListCommand = defineCommand(presentationList, async (ide) => {
  const { files, truncated } = await ide.workspace.list('', { recursive: true, limit: MAX_LIST_ENTRIES });
  const paths = files.filter((f) => f.type === 'file' && f.name.endsWith(DECK_SUFFIX) && !f.sensitive).map((f) => f.path);
  const decks = await Promise.all(
    paths.map(async (path) => {
      const loaded = await loadDeck(ide, path);
      const view = ide.presentations.view(path);
      return {
        deckPath: path,
        title: deckTitle(loaded.deck, path),
        slideCount: loaded.deck.segments.length,
        open: view !== undefined,
        ...(view && { slideIndex: view.slideIndex }),
      };
    }),
  );
  return { decks, truncated };
});

export const presentationReadCommand = defineCommand(presentationRead, async (ide, args) => {
  const loaded = await loadDeck(ide, args.deckPath);
  const all = slides(loaded.deck);
  const view = ide.presentations.view(loaded.path);
  const theme = loaded.deck.options.theme;
  return {
    deckPath: loaded.path,
    title: deckTitle(loaded.deck, loaded.path),
    ...(typeof theme === 'string' && { theme }),
    options: { ...loaded.deck.options },
    slideCount: all.length,
    slides: all.map((s, index) => ({ index, title: s.title, content: s.content, notes: s.notes })),
    version: loaded.version,
    open: view !== undefined,
    ...(view && { slideIndex: view.slideIndex, slideTitle: all[view.slideIndex]?.title ?? '', playback: view.playback }),
  };
});

export const presentationCreateCommand = defineNodeCommand(presentationCreate, async (ide, args, context) => {
  args.slides?.forEach((content, i) => {
    const problem = slideContentProblem(content);
    if (problem) throw new ToolError('INVALID_ARGUMENT', `slides.${i}: ${problem}.`, { fields: [`slides.${i}`] });
  });
  const path = await requireAbsent(ide, args.deckPath);
  const text = newDeck(args.title, args.slides, args.theme);
  const { version } = await ide.workspace.writeText(path, text, writeOptions(presentationCreate.name, context));
  return { deckPath: path, slideCount: parseDeck(text).segments.length, version };
});

export const presentationUpdateSlideCommand = defineNodeCommand(presentationUpdateSlide, async (ide, args, context) => {
  const problem = slideContentProblem(args.content);
  if (problem) throw new ToolError('INVALID_ARGUMENT', `content: ${problem}.`, { fields: ['content'] });
  const loaded = await loadDeck(ide, args.deckPath);
  requireSlide(loaded, args.slideIndex);
  const text = serializeDeck(withSlide(loaded.deck, args.slideIndex, args.content));
  const version = await replaceArtifact(ide, loaded, text, {
    tool: presentationUpdateSlide.name,
    context,
    baseVersion: args.baseVersion,
    force: args.force,
  });
  return { deckPath: loaded.path, slideIndex: args.slideIndex, slideCount: loaded.deck.segments.length, version };
});

export const presentationOpenCommand = defineCommand(presentationOpen, async (ide, args) => {
  const loaded = await loadDeck(ide, args.deckPath);
  const opened = await show(ide, loaded, args.slideIndex, { targetPaneId: args.targetPaneId, splitDirection: args.splitDirection });
  return { opened, ...viewState(ide, loaded) };
});

export const presentationNavigateCommand = defineCommand(presentationNavigate, async (ide, args) => {
  const loaded = await loadDeck(ide, args.deckPath);
  requireSlide(loaded, args.slideIndex);
  const opened = ide.presentations.view(loaded.path) ? false : await show(ide, loaded, args.slideIndex);
  if (!opened) await ide.presentations.navigate(loaded.path, args.slideIndex);
  return { opened, ...viewState(ide, loaded) };
});

export const presentationPlayCommand = defineCommand(presentationPlay, async (ide, args) => {
  const loaded = await loadDeck(ide, args.deckPath);
  const opened = ide.presentations.view(loaded.path) ? false : await show(ide, loaded, undefined);
  const view = requireView(ide, loaded.path);
  // Played from its last slide, a deck starts over, as a player at the end of a track does.
  const last = loaded.deck.segments.length - 1;
  if (view.playback !== 'playing' && view.slideIndex >= last && last > 0) await ide.presentations.navigate(loaded.path, 0);
  await ide.presentations.setPlayback(
    loaded.path,
    'playing',
    args.intervalMs ?? (view.playback === 'playing' ? view.intervalMs : DEFAULT_INTERVAL_MS),
  );
  return { opened, ...viewState(ide, loaded) };
});

export const presentationPauseCommand = defineCommand(presentationPause, async (ide, args) => {
  const loaded = await loadDeck(ide, args.deckPath);
  const view = requireView(ide, loaded.path);
  if (view.playback === 'playing') await ide.presentations.setPlayback(loaded.path, 'paused');
  return viewState(ide, loaded);
});

export const presentationStopCommand = defineCommand(presentationStop, async (ide, args) => {
  const loaded = await loadDeck(ide, args.deckPath);
  requireView(ide, loaded.path);
  await ide.presentations.setPlayback(loaded.path, 'stopped');
  return viewState(ide, loaded);
});

export default [
  presentationListCommand,
  presentationReadCommand,
  presentationCreateCommand,
  presentationUpdateSlideCommand,
  presentationOpenCommand,
  presentationNavigateCommand,
  presentationPlayCommand,
  presentationPauseCommand,
  presentationStopCommand,
];
