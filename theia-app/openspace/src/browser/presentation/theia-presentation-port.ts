import { inject, injectable } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core/lib/common/event';
import { WidgetManager } from '@theia/core/lib/browser/widget-manager';
import type { DeckView, Disposable, Listener, Placement, Playback, PresentationPort } from '../../../../../src/browser.js';
import { DECK_SUFFIX } from '../../../../../src/browser.js';
import { FileViewOpenHandler, placeView, shownView } from '../file-views.js';
import { TheiaShellPort } from '../theia-shell-port.js';
import { PresentationWidget } from './presentation-widget.js';

/** Opens `.deck.md` files as slides. */
@injectable()
export class PresentationOpenHandler extends FileViewOpenHandler<PresentationWidget> {
  readonly id = PresentationWidget.FACTORY_ID;
  readonly label = 'Presentation';
  protected readonly suffix = DECK_SUFFIX;
}

/** Deck views over Theia's shell: one PresentationWidget per deck, made by the widget manager. */
@injectable()
export class TheiaPresentationPort implements PresentationPort {
  @inject(WidgetManager) protected readonly widgets!: WidgetManager;
  @inject(TheiaShellPort) protected readonly shell!: TheiaShellPort;
  private readonly changed = new Emitter<void>();

  async open(deckPath: string, options: { slideIndex: number; placement?: Placement }): Promise<{ paneId: string }> {
    const widget = await this.widgets.getOrCreateWidget<PresentationWidget>(PresentationWidget.FACTORY_ID, { path: deckPath });
    if (!this.watched.has(widget)) {
      this.watched.add(widget);
      widget.onViewChanged(() => this.changed.fire());
      widget.disposed.connect(() => this.changed.fire());
    }
    widget.goTo(options.slideIndex);
    return placeView(this.shell, widget, options.placement);
  }

  view(deckPath: string): DeckView | undefined {
    const widget = this.shown(deckPath);
    const paneId = widget && this.shell.paneOf(widget);
    if (!widget || paneId === undefined) return undefined;
    const { slideIndex, playback, intervalMs } = widget.state;
    return { deckPath, paneId, slideIndex, playback, intervalMs };
  }

  views(): DeckView[] {
    return this.widgets
      .getWidgets(PresentationWidget.FACTORY_ID)
      .map((w) => this.view((w as PresentationWidget).path))
      .filter((v): v is DeckView => v !== undefined);
  }

  async navigate(deckPath: string, slideIndex: number): Promise<void> {
    this.shown(deckPath)?.goTo(slideIndex);
  }

  async setPlayback(deckPath: string, playback: Playback, intervalMs?: number): Promise<void> {
    this.shown(deckPath)?.setPlayback(playback, intervalMs);
  }

  onViewChanged(listener: Listener): Disposable {
    return this.changed.event(listener);
  }

  private readonly watched = new WeakSet<PresentationWidget>();

  private shown(deckPath: string): PresentationWidget | undefined {
    return shownView(this.widgets, this.shell, PresentationWidget, deckPath);
  }
}
