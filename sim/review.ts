import type { Disposable } from '../src/contract/port.js';
import type { ProposalView, ReviewPort } from '../src/families/index.js';
import type { SimLayout } from './layout.js';

/** What decides an edit proposal when the MCP client cannot ask its person (elicitation). */
export type ProposalDecision = 'accept' | 'reject' | 'wait';

/**
 * Edit proposals in the simulated IDE: each shows as a tab in the main area; its person (tests,
 * scenarios) accepts or rejects it with personDecides. The decision comes from the agent's side
 * (MCP elicitation) when the client can ask; else `decision` decides at once, or 'wait' leaves it
 * pending for personDecides.
 */
export class SimReview implements ReviewPort {
  readonly decidesAtAgent = true;
  autoDecision: 'accept' | 'reject' | undefined;
  private readonly shown = new Map<string, ProposalView>();
  private readonly listeners = new Set<(proposalId: string, accepted: boolean) => void>();

  constructor(
    private readonly layout: SimLayout,
    decision: ProposalDecision = 'accept',
  ) {
    this.decideWith(decision);
  }

  /** Change what decides proposals when the client cannot ask (the --proposals setting). */
  decideWith(decision: ProposalDecision): void {
    this.autoDecision = decision === 'wait' ? undefined : decision;
  }

  static contentId(proposalId: string): string {
    return `proposal:${proposalId}`;
  }

  async show(proposal: ProposalView): Promise<void> {
    this.shown.set(proposal.proposalId, { ...proposal });
    const name = proposal.path.split('/').pop() ?? proposal.path;
    await this.layout.openContent({ type: 'view', contentId: SimReview.contentId(proposal.proposalId), title: `${name} ↔ proposed` });
  }

  async close(proposalId: string): Promise<void> {
    this.shown.delete(proposalId);
    const contentId = SimReview.contentId(proposalId);
    if (this.layout.isOpen(contentId)) await this.layout.closeContent(contentId);
  }

  onDecision(listener: (proposalId: string, accepted: boolean) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The diffs open now, as the person sees them. */
  views(): ProposalView[] {
    return [...this.shown.values()];
  }

  /** The person clicks Accept or Reject above a proposal's diff. */
  personDecides(proposalId: string, accept: boolean): void {
    if (!this.shown.has(proposalId)) throw new Error(`no proposal ${proposalId} is shown`);
    for (const listener of this.listeners) listener(proposalId, accept);
  }
}
