/**
 * Edit proposals in Theia (issues 14 and 30): each file of a proposal opens in Theia's side-by-side
 * Monaco diff editor (the file on the left, the proposed text on the right, read-only), with Accept
 * and Reject above each hunk (a view zone in the proposed side) and, for the file's remaining hunks,
 * in its toolbar and the command palette. A rejected hunk leaves the proposed side; an accepted one
 * stays, marked. Closing a diff without deciding rejects the file's remaining hunks, as closing a
 * review does elsewhere. The proposals and what a decision does are shared code
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
import { MonacoDiffEditor } from '@theia/monaco/lib/browser/monaco-diff-editor';
import type { Disposable, ProposalView, ReviewDecision, ReviewPort } from '../../../../src/browser.js';
import { ContentIds } from './content-ids.js';
import { parseProposalUri, proposalOf, proposalUri, type ProposalSide } from './proposal-uri.js';

export const ACCEPT_COMMAND = { id: 'openspace.review.accept', label: "OpenSpace: Accept Proposed Change (this file's remaining hunks)" };
export const REJECT_COMMAND = { id: 'openspace.review.reject', label: "OpenSpace: Reject Proposed Change (this file's remaining hunks)" };

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

/** The view a diff shows, and the view zones of its hunk bars. */
interface HunkZones {
  view: ProposalView;
  ids: string[];
  listeners: Disposable[];
}

@injectable()
export class TheiaReviewPort implements ReviewPort, ResourceResolver, CommandContribution, TabBarToolbarContribution {
  @inject(EditorManager) protected readonly editors!: EditorManager;
  @inject(ApplicationShell) protected readonly shell!: ApplicationShell;
  @inject(ContentIds) protected readonly ids!: ContentIds;

  readonly priority = 10;
  private readonly texts = new Map<string, ProposalText>();
  private readonly decided = new Emitter<ReviewDecision>();
  /** Diffs that close because their file was decided (not a person closing them). */
  private readonly closing = new Set<string>();
  private readonly watched = new WeakSet<Widget>();
  /** The hunk bars shown in each diff, to replace when the view changes. */
  private readonly zones = new Map<string, HunkZones>();

  resolve(uri: URI): Resource {
    const parsed = parseProposalUri(uri);
    const text = parsed && this.texts.get(this.key(parsed.proposalId, parsed.side, parsed.path));
    if (!text) throw new Error(`No proposal text at ${uri.toString()}`);
    return text;
  }

  async show(view: ProposalView): Promise<void> {
    const { proposalId, path } = view;
    const modified = this.text(proposalId, 'modified', path, view.proposed);
    const file = this.ids.uriOf(path);
    // A new file has nothing on disk to show on the left; a change already made has its file before on the left.
    const original = view.original === '' || view.applied ? this.text(proposalId, 'original', path, view.original) : file;
    const uri = DiffUris.encode(original, modified, `${file.path.base} ↔ ${view.applied ? 'changed' : 'proposed'} (${proposalId})`);
    // A change set shows its first file; the others wait in their tabs (the person may be reading the first already).
    const widget = await this.editors.open(uri, { mode: view.file === 1 ? 'activate' : 'open' });
    widget.title.caption = `${view.title}: ${path} (${proposalId}${view.files > 1 ? `, file ${view.file} of ${view.files}` : ''})`;
    this.showHunks(widget, view);
    if (this.watched.has(widget)) return;
    this.watched.add(widget);
    const key = this.key(proposalId, 'modified', path);
    widget.disposed.connect(() => {
      for (const listener of this.zones.get(key)?.listeners ?? []) listener.dispose();
      this.zones.delete(key);
      // Closed by the person without a decision: a Reject of what is left.
      if (!this.closing.delete(key) && this.texts.has(key)) this.decided.fire({ proposalId, path, accepted: false });
    });
  }

  async close(proposalId: string, path: string): Promise<void> {
    const widget = this.widgetOf(proposalId, path);
    const key = this.key(proposalId, 'modified', path);
    for (const side of ['modified', 'original'] as const) this.texts.delete(this.key(proposalId, side, path));
    if (widget) {
      this.closing.add(key);
      widget.close();
    }
  }

  onDecision(listener: (decision: ReviewDecision) => void): Disposable {
    return this.decided.event(listener);
  }

  registerCommands(registry: CommandRegistry): void {
    for (const [command, accepted] of [
      [ACCEPT_COMMAND, true],
      [REJECT_COMMAND, false],
    ] as const) {
      registry.registerCommand(command, {
        execute: (widget?: Widget) => {
          const proposal = proposalOf(this.target(widget));
          if (proposal) this.decided.fire({ ...proposal, accepted });
        },
        isEnabled: (widget?: Widget) => proposalOf(this.target(widget)) !== undefined,
        isVisible: (widget?: Widget) => proposalOf(this.target(widget)) !== undefined,
      });
    }
  }

  registerToolbarItems(registry: TabBarToolbarRegistry): void {
    // Words, not icons: the person decides about their file.
    registry.registerItem({
      id: ACCEPT_COMMAND.id,
      command: ACCEPT_COMMAND.id,
      text: 'Accept',
      tooltip: "Accept: write this file's proposed changes (those not yet decided)",
      priority: 0,
    });
    registry.registerItem({
      id: REJECT_COMMAND.id,
      command: REJECT_COMMAND.id,
      text: 'Reject',
      tooltip: "Reject: leave this file's lines as they are (those not yet decided)",
      priority: 1,
    });
  }

  /**
   * A bar above each hunk of the proposed side: Accept and Reject while undecided, "Accepted" after.
   * Placed again whenever the proposed side gets its model back (Theia drops a hidden editor's model)
   * or its text changes (a decision or a revision), once it shows this view's text.
   */
  private showHunks(widget: EditorWidget, view: ProposalView): void {
    if (!(widget.editor instanceof MonacoDiffEditor)) return;
    const editor = widget.editor.diffEditor.getModifiedEditor();
    const key = this.key(view.proposalId, 'modified', view.path);
    const known = this.zones.get(key);
    if (known) {
      known.view = view;
      return this.placeHunks(editor, known);
    }
    const shown: HunkZones = { view, ids: [], listeners: [] };
    this.zones.set(key, shown);
    shown.listeners.push(
      editor.onDidChangeModel(() => {
        shown.ids = []; // the zones went with the old view
        this.placeHunks(editor, shown);
      }),
      editor.onDidChangeModelContent(() => this.placeHunks(editor, shown)),
    );
    this.placeHunks(editor, shown);
  }

  private placeHunks(editor: ReturnType<MonacoDiffEditor['diffEditor']['getModifiedEditor']>, shown: HunkZones): void {
    const { view } = shown;
    // The model's line ends may be its own.
    const text = editor.getModel()?.getValue();
    if (text === undefined || text.replace(/\r\n?/g, '\n') !== view.proposed.replace(/\r\n?/g, '\n')) return;
    editor.changeViewZones((zones) => {
      for (const id of shown.ids) zones.removeZone(id);
      shown.ids = view.hunks.map((hunk) =>
        zones.addZone({ afterLineNumber: hunk.line - 1, heightInPx: 26, domNode: this.hunkBar(view, hunk), suppressMouseDown: true }),
      );
    });
  }

  private hunkBar(view: ProposalView, hunk: ProposalView['hunks'][number]): HTMLElement {
    const bar = document.createElement('div');
    bar.className = `openspace-hunk-bar openspace-hunk-${hunk.decision}`;
    bar.dataset.hunk = String(hunk.hunk);
    // The editor below would take the press (and capture the pointer, so that no click follows).
    for (const type of ['pointerdown', 'mousedown']) bar.addEventListener(type, (event) => event.stopPropagation());
    const label = document.createElement('span');
    label.textContent = `Change ${hunk.hunk}: +${hunk.added} −${hunk.removed}${hunk.decision === 'accepted' ? ' · Accepted' : ''}`;
    bar.append(label);
    if (hunk.decision === 'pending') {
      for (const [text, accepted] of [
        ['Accept', true],
        ['Reject', false],
      ] as const) {
        const button = document.createElement('button');
        button.className = `theia-button ${accepted ? 'main' : 'secondary'} openspace-hunk-${accepted ? 'accept' : 'reject'}`;
        button.textContent = text;
        button.title = `${text} this change to ${view.path}`;
        button.onclick = () => this.decided.fire({ proposalId: view.proposalId, path: view.path, hunk: hunk.hunk, accepted });
        bar.append(button);
      }
    }
    return bar;
  }

  /**
   * The widget a toolbar button belongs to (another panel's toolbar shows no button), or the current
   * one for the palette, which passes none.
   */
  private target(widget: Widget | undefined): Widget | undefined {
    return widget ?? this.shell.currentWidget;
  }

  private widgetOf(proposalId: string, path: string): EditorWidget | undefined {
    return this.editors.all.find((w) => {
      const proposal = proposalOf(w);
      return proposal?.proposalId === proposalId && proposal.path === path;
    });
  }

  private key(proposalId: string, side: string, path: string): string {
    return `${proposalId}/${side}/${path}`;
  }

  /** The proposal text of one side, created or updated. */
  private text(proposalId: string, side: ProposalSide, path: string, content: string): URI {
    const existing = this.texts.get(this.key(proposalId, side, path));
    if (existing) {
      existing.update(content);
      return existing.uri;
    }
    const uri = proposalUri(proposalId, side, path);
    this.texts.set(this.key(proposalId, side, path), new ProposalText(uri, content));
    return uri;
  }
}
