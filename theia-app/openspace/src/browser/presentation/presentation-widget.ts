import Reveal from 'reveal.js';
import type { RevealApi } from 'reveal.js';
import 'reveal.js/reveal.css';
import { BaseWidget, type Message } from '@theia/core/lib/browser/widgets/widget';
import { Emitter } from '@theia/core/lib/common/event';
import type { Disposable, Playback, WorkspacePort } from '../../../../../src/browser.js';
import { DECK_THEMES, DEFAULT_INTERVAL_MS } from '../../../../../src/browser.js';
import { renderDeck } from './deck-html.js';

/** The `<link>` of the reveal.js theme the shown deck asks for (theme CSS is global; the app serves the files). */
const THEME_LINK = 'openspace-reveal-theme';
const THEMES: ReadonlySet<string> = new Set(DECK_THEMES);

export interface DeckState {
  slideIndex: number;
  slideCount: number;
  playback: Playback;
  intervalMs: number;
}

/**
 * A `.deck.md` deck shown with reveal.js (embedded): rendered from the file, rendered again when the
 * file changes, navigated by the arrow keys while it has the focus, played with reveal.js's
 * auto-slide. Its state (slide, playback) lives here and applies once reveal.js is ready, so the
 * agent's calls answer at once.
 */
export class PresentationWidget extends BaseWidget {
  static readonly FACTORY_ID = 'openspace-presentation';
  static idFor(path: string): string {
    return `openspace:presentation:${path}`;
  }

  readonly state: DeckState = { slideIndex: 0, slideCount: 1, playback: 'stopped', intervalMs: DEFAULT_INTERVAL_MS };
  private readonly changed = new Emitter<void>();
  readonly onViewChanged = this.changed.event;
  private readonly revealNode = document.createElement('div');
  private readonly slidesNode = document.createElement('div');
  private theme = 'black';
  private deck: RevealApi | undefined;
  /** Whether the deck was read: until then the slide count is unknown and a slide index is kept as asked. */
  private rendered = false;
  private starting: Promise<void> | undefined;

  constructor(
    readonly path: string,
    private readonly workspace: WorkspacePort,
    onFileText: (listener: (text: string) => void) => Disposable,
  ) {
    super();
    this.id = PresentationWidget.idFor(path);
    this.title.label = path.split('/').pop() ?? path;
    this.title.caption = path;
    this.title.closable = true;
    this.title.iconClass = 'codicon codicon-preview';
    this.addClass('openspace-presentation');
    this.node.tabIndex = 0;
    this.revealNode.className = 'reveal';
    this.slidesNode.className = 'slides';
    this.revealNode.appendChild(this.slidesNode);
    this.node.appendChild(this.revealNode);
    this.toDispose.push(this.changed);
    this.toDispose.push(onFileText((text) => !this.isDisposed && this.render(text)));
  }

  /** Show a slide (clamped to the deck once it is read); reveal.js restarts the auto-slide countdown. */
  goTo(slideIndex: number): void {
    this.state.slideIndex = Math.max(0, this.rendered ? Math.min(slideIndex, this.state.slideCount - 1) : slideIndex);
    this.deck?.slide(this.state.slideIndex);
    this.afterMove();
  }

  setPlayback(playback: Playback, intervalMs?: number): void {
    this.state.playback = playback;
    if (intervalMs !== undefined) this.state.intervalMs = intervalMs;
    if (playback === 'stopped') this.state.slideIndex = 0;
    this.deck?.slide(this.state.slideIndex);
    this.afterMove();
  }

  /** Playing ends on the last slide; reveal.js auto-slides only while playing. */
  private afterMove(): void {
    if (this.state.playback === 'playing' && this.state.slideIndex >= this.state.slideCount - 1) this.state.playback = 'stopped';
    this.deck?.configure({ autoSlide: this.state.playback === 'playing' ? this.state.intervalMs : 0 });
    this.changed.fire();
  }

  private render(text: string): void {
    const { options, sections } = renderDeck(text);
    this.rendered = true;
    this.slidesNode.replaceChildren(
      ...sections.map((html) => {
        const section = document.createElement('section');
        section.innerHTML = html;
        return section;
      }),
    );
    this.state.slideCount = sections.length;
    this.theme = typeof options.theme === 'string' && THEMES.has(options.theme) ? options.theme : 'black';
    if (this.isVisible) this.applyTheme();
    if (this.deck) {
      this.deck.configure({ transition: typeof options.transition === 'string' ? (options.transition as never) : 'slide' });
      this.deck.sync();
    }
    this.goTo(this.state.slideIndex);
  }

  private applyTheme(): void {
    let link = document.getElementById(THEME_LINK) as HTMLLinkElement | null;
    if (!link) {
      link = Object.assign(document.createElement('link'), { id: THEME_LINK, rel: 'stylesheet' });
      document.head.appendChild(link);
    }
    const href = `reveal-themes/${this.theme}.css`;
    if (link.getAttribute('href') !== href) link.setAttribute('href', href);
  }

  private async start(): Promise<void> {
    const { text } = await this.workspace.readText(this.path);
    this.render(text);
    const deck = new Reveal(this.revealNode, {
      embedded: true,
      hash: false,
      history: false,
      controls: true,
      progress: true,
      center: true,
      loop: false,
      autoSlideStoppable: false,
      keyboardCondition: () => this.node.contains(document.activeElement),
    });
    await deck.initialize();
    deck.on('slidechanged', () => {
      const index = deck.getIndices().h;
      if (index === this.state.slideIndex) return;
      this.state.slideIndex = index;
      this.afterMove();
    });
    this.deck = deck;
    this.goTo(this.state.slideIndex);
  }

  protected override onAfterAttach(msg: Message): void {
    super.onAfterAttach(msg);
    this.starting ??= this.start().catch((err: Error) => {
      this.slidesNode.replaceChildren(
        Object.assign(document.createElement('section'), { textContent: `Cannot show ${this.path}: ${err.message}` }),
      );
    });
  }

  protected override onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    this.applyTheme();
    this.deck?.layout();
  }

  protected override onResize(msg: Parameters<BaseWidget['onResize']>[0]): void {
    super.onResize(msg);
    this.deck?.layout();
  }

  protected override onActivateRequest(msg: Message): void {
    super.onActivateRequest(msg);
    this.node.focus();
  }

  override dispose(): void {
    this.deck?.destroy();
    this.deck = undefined;
    super.dispose();
  }
}
