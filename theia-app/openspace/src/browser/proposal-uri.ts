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

/** The proposal ID and side of a proposal text's URI. */
export function parseProposalUri(uri: URI): { proposalId: string; side: ProposalSide } | undefined {
  if (uri.scheme !== PROPOSAL_SCHEME) return undefined;
  const [, proposalId, side] = uri.path.toString().split('/');
  return proposalId && (side === 'modified' || side === 'original') ? { proposalId, side } : undefined;
}

/** Whether a widget is a diff editor (a proposal's or any other). */
export function isDiffEditor(widget: Widget | undefined): boolean {
  return widget instanceof EditorWidget && DiffUris.isDiffUri(widget.editor.uri);
}

/** The proposal a diff editor shows; undefined for any other widget. */
export function proposalIdOf(widget: Widget | undefined): string | undefined {
  if (!(widget instanceof EditorWidget) || !DiffUris.isDiffUri(widget.editor.uri)) return undefined;
  const right = DiffUris.decode(widget.editor.uri)[1];
  return right && parseProposalUri(right)?.proposalId;
}
