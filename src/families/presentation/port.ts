import type { Disposable, Listener } from '../../contract/port.js';
import type { Placement } from '../pane/port.js';

/** A deck's playback: `playing` advances every intervalMs; `paused` keeps the slide; `stopped` is not playing (stop returns to slide 0). */
export type Playback = 'playing' | 'paused' | 'stopped';

/** What a deck's open view shows. */
export interface DeckView {
  deckPath: string;
  /** The pane whose tab shows the deck. */
  paneId: string;
  /** 0-based. */
  slideIndex: number;
  playback: Playback;
  /** The auto-advance interval of the last play. */
  intervalMs: number;
}

/**
 * The views of `.deck.md` decks (TECHSPEC §5.2). The deck itself is the file: a view renders it
 * from the workspace and renders again when the file changes (WorkspacePort.onFileWritten). While
 * a deck plays, its view advances every intervalMs by itself and stops on the last slide.
 */
export interface PresentationPort {
  /** Open the deck's view (or reveal the open one) at a slide; placement applies when it is not open yet. */
  open(deckPath: string, options: { slideIndex: number; placement?: Placement }): Promise<{ paneId: string }>;
  /** The deck's view, or undefined when no tab shows it. */
  view(deckPath: string): DeckView | undefined;
  views(): DeckView[];
  /** Show a slide of an open deck (the caller checked the index against the deck). */
  navigate(deckPath: string, slideIndex: number): Promise<void>;
  /** Start, pause or stop an open deck's playback; stop also returns to slide 0. */
  setPlayback(deckPath: string, playback: Playback, intervalMs?: number): Promise<void>;
  /** Fires when an open deck shows another slide or its playback changes, whoever changed it. */
  onViewChanged(listener: Listener): Disposable;
}
