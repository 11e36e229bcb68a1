import type { Disposable } from '../src/contract/port.js';
import type { ProposalView, ReviewDecision, ReviewPort } from '../src/families/index.js';
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
  private readonly listeners = new Set<(decision: ReviewDecision) => void>();

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

  /** The tab of a proposal's file. */
  static contentId(proposalId: string, path: string): string {
    return `proposal:${proposalId}:${path}`;
  }

  async show(file: ProposalView): Promise<void> {
    this.shown.set(SimReview.contentId(file.proposalId, file.path), { ...file });
    const name = file.path.split('/').pop() ?? file.path;
    await this.layout.openContent({
      type: 'view',
      contentId: SimReview.contentId(file.proposalId, file.path),
      title: `${name} ↔ proposed`,
    });
  }

  async close(proposalId: string, path: string): Promise<void> {
    const contentId = SimReview.contentId(proposalId, path);
    this.shown.delete(contentId);
    if (this.layout.isOpen(contentId)) await this.layout.closeContent(contentId);
  }

  onDecision(listener: (decision: ReviewDecision) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The diffs open now, as the person sees them. */
  views(): ProposalView[] {
    return [...this.shown.values()];
  }

  /**
   * The person clicks Accept or Reject: above one hunk of a file's diff (path and hunk), in a file's
   * toolbar (its undecided hunks), or for the whole proposal (neither).
   */
  personDecides(proposalId: string, accepted: boolean, which: { path?: string; hunk?: number } = {}): void {
    if (!this.views().some((v) => v.proposalId === proposalId && (which.path === undefined || v.path === which.path))) {
      throw new Error(`no proposal ${proposalId}${which.path ? ` of ${which.path}` : ''} is shown`);
    }
    for (const listener of this.listeners) listener({ proposalId, accepted, ...which });
  }
}
