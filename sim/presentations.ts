import type { DeckView, Placement, Playback, PresentationPort, WorkspacePort } from '../src/families/index.js';
import type { Disposable, Listener } from '../src/contract/port.js';
import { DEFAULT_INTERVAL_MS } from '../src/families/presentation/tools.js';
import { parseDeck } from '../src/models/deck.js';
import type { SimLayout } from './layout.js';

interface OpenDeck {
  slideIndex: number;
  slideCount: number;
  playback: Playback;
  intervalMs: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Deck views of the simulated IDE: a tab per open deck, with the slide shown and playback as
 * Theia's reveal.js view has them. While playing, a timer advances the slide every intervalMs and
 * stops on the last one; navigating restarts the countdown, as reveal.js's auto-slide does.
 */
export class SimPresentations implements PresentationPort, Disposable {
  private readonly decks = new Map<string, OpenDeck>();
  private readonly subscriptions: Disposable[];
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly layout: SimLayout,
    private readonly workspace: WorkspacePort,
  ) {
    this.subscriptions = [
      layout.onLayoutChanged(() => this.forgetClosed()),
      workspace.onFileWritten((path, text) => {
        const deck = this.decks.get(path);
        if (!deck) return;
        deck.slideCount = parseDeck(text).segments.length;
        deck.slideIndex = Math.min(deck.slideIndex, deck.slideCount - 1);
      }),
    ];
  }

  async open(deckPath: string, options: { slideIndex: number; placement?: Placement }): Promise<{ paneId: string }> {
    let deck = this.decks.get(deckPath);
    if (!deck) {
      const { text } = await this.workspace.readText(deckPath);
      deck = { slideIndex: 0, slideCount: parseDeck(text).segments.length, playback: 'stopped', intervalMs: DEFAULT_INTERVAL_MS };
      this.decks.set(deckPath, deck);
    }
    const title = deckPath.split('/').pop() ?? deckPath;
    const shown = await this.layout.openContent({ type: 'presentation', contentId: deckPath, title, ...options.placement });
    this.show(deckPath, deck, options.slideIndex);
    return shown;
  }

  view(deckPath: string): DeckView | undefined {
    const deck = this.decks.get(deckPath);
    const paneId = this.layout.paneOf(deckPath);
    if (!deck || paneId === undefined) return undefined;
    return { deckPath, paneId, slideIndex: deck.slideIndex, playback: deck.playback, intervalMs: deck.intervalMs };
  }

  views(): DeckView[] {
    return [...this.decks.keys()].map((path) => this.view(path)).filter((v): v is DeckView => v !== undefined);
  }

  async navigate(deckPath: string, slideIndex: number): Promise<void> {
    const deck = this.decks.get(deckPath);
    if (deck) this.show(deckPath, deck, slideIndex);
  }

  async setPlayback(deckPath: string, playback: Playback, intervalMs?: number): Promise<void> {
    const deck = this.decks.get(deckPath);
    if (!deck) return;
    deck.playback = playback;
    if (intervalMs !== undefined) deck.intervalMs = intervalMs;
    if (playback === 'stopped') deck.slideIndex = 0;
    this.schedule(deckPath, deck);
    this.changed();
  }

  onViewChanged(listener: Listener): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  dispose(): void {
    this.listeners.clear();
    for (const deck of this.decks.values()) clearTimeout(deck.timer);
    this.decks.clear();
    for (const s of this.subscriptions) s.dispose();
  }

  private show(deckPath: string, deck: OpenDeck, slideIndex: number): void {
    deck.slideIndex = Math.max(0, Math.min(slideIndex, deck.slideCount - 1));
    this.schedule(deckPath, deck);
    this.changed();
  }

  private schedule(deckPath: string, deck: OpenDeck): void {
    clearTimeout(deck.timer);
    deck.timer = undefined;
    if (deck.playback !== 'playing') return;
    if (deck.slideIndex >= deck.slideCount - 1) {
      deck.playback = 'stopped';
      return;
    }
    deck.timer = setTimeout(() => {
      deck.slideIndex += 1;
      if (deck.slideIndex >= deck.slideCount - 1) deck.playback = 'stopped';
      else this.schedule(deckPath, deck);
      this.changed();
    }, deck.intervalMs);
    deck.timer.unref?.();
  }

  private forgetClosed(): void {
    for (const [path, deck] of this.decks) {
      if (this.layout.isOpen(path)) continue;
      clearTimeout(deck.timer);
      this.decks.delete(path);
    }
  }
}
