import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import type { Widget } from '@theia/core/lib/browser/widgets';
import URI from '@theia/core/lib/common/uri';
import { EditorWidget } from '@theia/editor/lib/browser/editor-widget';

/** The scheme of a proposal's texts: openspace-proposal:/<proposalId>/<modified|original>/<path> (the path for its language). */
export const PROPOSAL_SCHEME = 'openspace-proposal';

export type ProposalSide = 'modified' | 'original';

export function proposalUri(proposalId: string, side: ProposalSide, path: string): URI {
  return new URI(`${PROPOSAL_SCHEME}:/${proposalId}/${side}/${path}`);
}

/** The proposal ID, side and file of a proposal text's URI. */
export function parseProposalUri(uri: URI): { proposalId: string; side: ProposalSide; path: string } | undefined {
  if (uri.scheme !== PROPOSAL_SCHEME) return undefined;
  const [, proposalId, side, ...path] = uri.path.toString().split('/');
  return proposalId && (side === 'modified' || side === 'original') ? { proposalId, side, path: path.join('/') } : undefined;
}

/** Whether a widget is a diff editor (a proposal's or any other). */
export function isDiffEditor(widget: Widget | undefined): boolean {
  return widget instanceof EditorWidget && DiffUris.isDiffUri(widget.editor.uri);
}

/** The proposal and file a diff editor shows; undefined for any other widget. */
export function proposalOf(widget: Widget | undefined): { proposalId: string; path: string } | undefined {
  if (!(widget instanceof EditorWidget) || !DiffUris.isDiffUri(widget.editor.uri)) return undefined;
  const right = DiffUris.decode(widget.editor.uri)[1];
  const parsed = right && parseProposalUri(right);
  return parsed ? { proposalId: parsed.proposalId, path: parsed.path } : undefined;
}

/** The proposal a diff editor shows; undefined for any other widget. */
export function proposalIdOf(widget: Widget | undefined): string | undefined {
  return proposalOf(widget)?.proposalId;
}
