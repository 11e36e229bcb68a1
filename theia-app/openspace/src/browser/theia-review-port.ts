/**
 * Edit proposals in Theia (issue 14): each proposal opens in Theia's side-by-side Monaco diff editor
 * (the file on the left, the proposed text on the right, read-only), with Accept and Reject in its
 * toolbar and in the command palette. Closing the diff without deciding rejects the proposal, as
 * closing a review does elsewhere. The proposals and what a decision does are shared code
 * (src/families/editor/review.ts); this is only where the person sees and decides.
 */
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import type { Widget } from '@theia/core/lib/browser/widgets';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { TabBarToolbarContribution, type TabBarToolbarRegistry } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { CommandContribution, type CommandRegistry } from '@theia/core/lib/common/command';
import { Emitter } from '@theia/core/lib/common/event';
import type { Resource, ResourceResolver } from '@theia/core/lib/common/resource';
import URI from '@theia/core/lib/common/uri';
import { inject, injectable } from '@theia/core/shared/inversify';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { EditorWidget } from '@theia/editor/lib/browser/editor-widget';
import type { Disposable, ProposalView, ReviewPort } from '../../../../src/browser.js';
import { ContentIds } from './content-ids.js';
import { parseProposalUri, proposalIdOf, proposalUri, type ProposalSide } from './proposal-uri.js';

export const ACCEPT_COMMAND = { id: 'openspace.review.accept', label: 'OpenSpace: Accept Proposed Change' };
export const REJECT_COMMAND = { id: 'openspace.review.reject', label: 'OpenSpace: Reject Proposed Change' };

/** A proposal's text, read-only; it tells the diff when a revision changes it. */
class ProposalText implements Resource {
  readonly readOnly = true;
  private readonly changed = new Emitter<void>();
  readonly onDidChangeContents = this.changed.event;

  constructor(
    readonly uri: URI,
    private text: string,
  ) {}

  async readContents(): Promise<string> {
    return this.text;
  }

  update(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.changed.fire();
  }

  dispose(): void {}
}

@injectable()
export class TheiaReviewPort implements ReviewPort, ResourceResolver, CommandContribution, TabBarToolbarContribution {
  @inject(EditorManager) protected readonly editors!: EditorManager;
  @inject(ApplicationShell) protected readonly shell!: ApplicationShell;
  @inject(ContentIds) protected readonly ids!: ContentIds;

  readonly priority = 10;
  private readonly texts = new Map<string, ProposalText>();
  private readonly decided = new Emitter<{ proposalId: string; accepted: boolean }>();
  /** Proposals whose diff closes because they were decided (not a person closing it). */
  private readonly closing = new Set<string>();
  private readonly watched = new WeakSet<Widget>();

  resolve(uri: URI): Resource {
    const parsed = parseProposalUri(uri);
    const text = parsed && this.texts.get(this.key(parsed.proposalId, parsed.side));
    if (!text) throw new Error(`No proposal text at ${uri.toString()}`);
    return text;
  }

  async show(proposal: ProposalView): Promise<void> {
    const { proposalId, path } = proposal;
    const modified = this.text(proposalId, 'modified', path, proposal.proposed);
    const file = this.ids.uriOf(path);
    // A new file has nothing on disk to show on the left.
    const original = proposal.original === '' ? this.text(proposalId, 'original', path, '') : file;
    const name = file.path.base;
    const uri = DiffUris.encode(original, modified, `${name} ↔ proposed (${proposalId})`);
    const widget = await this.editors.open(uri, { mode: 'activate' });
    widget.title.caption = `${proposal.title}: ${path} (${proposalId})`;
    if (this.watched.has(widget)) return;
    this.watched.add(widget);
    widget.disposed.connect(() => {
      // Closed by the person without a decision: that is a Reject.
      if (!this.closing.delete(proposalId) && this.texts.has(this.key(proposalId, 'modified'))) {
        this.decided.fire({ proposalId, accepted: false });
      }
    });
  }

  async close(proposalId: string): Promise<void> {
    const widget = this.widgetOf(proposalId);
    for (const side of ['modified', 'original']) this.texts.delete(this.key(proposalId, side));
    if (widget) {
      this.closing.add(proposalId);
      widget.close();
    }
  }

  onDecision(listener: (proposalId: string, accepted: boolean) => void): Disposable {
    return this.decided.event(({ proposalId, accepted }) => listener(proposalId, accepted));
  }

  registerCommands(registry: CommandRegistry): void {
    for (const [command, accepted] of [
      [ACCEPT_COMMAND, true],
      [REJECT_COMMAND, false],
    ] as const) {
      registry.registerCommand(command, {
        execute: (widget?: Widget) => {
          const proposalId = proposalIdOf(this.target(widget));
          if (proposalId) this.decided.fire({ proposalId, accepted });
        },
        isEnabled: (widget?: Widget) => proposalIdOf(this.target(widget)) !== undefined,
        isVisible: (widget?: Widget) => proposalIdOf(this.target(widget)) !== undefined,
      });
    }
  }

  registerToolbarItems(registry: TabBarToolbarRegistry): void {
    // Words, not icons: the person decides about their file.
    const accept = { command: ACCEPT_COMMAND.id, text: 'Accept', tooltip: 'Accept: write the proposed change to the file' };
    registry.registerItem({ id: ACCEPT_COMMAND.id, ...accept, priority: 0 });
    registry.registerItem({
      id: REJECT_COMMAND.id,
      command: REJECT_COMMAND.id,
      text: 'Reject',
      tooltip: 'Reject: leave the file as it is',
      priority: 1,
    });
  }

  /**
   * The widget a toolbar button belongs to (another panel's toolbar shows no button), or the current
   * one for the palette, which passes none.
   */
  private target(widget: Widget | undefined): Widget | undefined {
    return widget ?? this.shell.currentWidget;
  }

  private widgetOf(proposalId: string): EditorWidget | undefined {
    return this.editors.all.find((w) => proposalIdOf(w) === proposalId);
  }

  private key(proposalId: string, side: string): string {
    return `${proposalId}/${side}`;
  }

  /** The proposal text of one side, created or updated. */
  private text(proposalId: string, side: ProposalSide, path: string, content: string): URI {
    const existing = this.texts.get(this.key(proposalId, side));
    if (existing) {
      existing.update(content);
      return existing.uri;
    }
    const uri = proposalUri(proposalId, side, path);
    this.texts.set(this.key(proposalId, side), new ProposalText(uri, content));
    return uri;
  }
}
