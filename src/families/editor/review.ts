/**
 * Edits the person reviews (issue 14): openspace.editor.propose_edit shows a proposed change as a
 * diff (ReviewPort) and answers the person's decision. The proposals live here, shared by both
 * IDEs: a decision takes effect when the person makes it (Accept writes the file through the
 * artifact store, only over the version the proposal was made against), whether or not an agent
 * call is waiting; a call that waited in vain answers `pending`, and a later call asks again.
 */
import { statePart } from '../../commands/ide-state.js';
import { editorProposeEdit, PROPOSAL_WAIT_MS } from './tools.js';
import { serializableContext, ToolError, type CallContext } from '../../contract/index.js';
import type { IdePort } from '../index.js';
import { applyPatch } from '../../store/patch-engine.js';
import { defineCommand } from '../../commands/command.js';
import { ideEvents } from '../../commands/event-log.js';
import { guardUnsavedWork } from '../file/commands.js';
import { splitLines } from '../../commands/text.js';

/** Decided proposals kept so that a late call still learns the decision. */
const DECIDED_KEPT = 100;

type Status = 'pending' | 'accepted' | 'rejected';

interface Proposal {
  proposalId: string;
  path: string;
  title: string;
  original: string;
  proposed: string;
  /** The file's version the proposal was made against; null: the file did not exist. */
  baseVersion: string | null;
  status: Status;
  /** With accepted: the version written. */
  version?: string;
  /** Why an Accept could not be carried out (the file moved on): the answer is this failure. */
  failure?: ToolError;
  /** Who proposed, for the audit of the write. */
  context?: CallContext;
  /** A decision is being carried out (the write): the proposal stays findable, and pending, until it is. */
  deciding?: boolean;
  waiters: Set<() => void>;
}

/** Lines added and removed from one text to another, by a line-multiset difference (what a diff's gutter counts, near enough for a summary). */
export function lineDelta(before: string, after: string): { added: number; removed: number } {
  const count = new Map<string, number>();
  for (const line of splitLines(before)) count.set(line, (count.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of splitLines(after)) {
    const n = count.get(line) ?? 0;
    if (n > 0) count.set(line, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of count.values()) removed += n;
  return { added, removed };
}

/** The proposals of one IDE, and the decisions its person makes on them. */
export class Proposals {
  private readonly open = new Map<string, Proposal>();
  private readonly decided = new Map<string, Proposal>();
  private next = 1;

  constructor(private readonly ide: IdePort) {
    ide.review.onDecision((proposalId, accepted) => void this.decide(proposalId, accepted));
  }

  get(proposalId: string): Proposal | undefined {
    return this.open.get(proposalId) ?? this.decided.get(proposalId);
  }

  /** The pending proposals, for a review UI (Theia's Accept/Reject commands). */
  pending(): { proposalId: string; path: string; title: string }[] {
    return [...this.open.values()].filter((p) => !p.deciding).map(({ proposalId, path, title }) => ({ proposalId, path, title }));
  }

  newId(): string {
    while (this.get(`proposal-${this.next}`)) this.next++;
    return `proposal-${this.next++}`;
  }

  /** Record and show a new or revised proposal. */
  async propose(proposal: Omit<Proposal, 'status' | 'waiters'>): Promise<Proposal> {
    const earlier = this.open.get(proposal.proposalId);
    const entry: Proposal = { ...proposal, status: 'pending', waiters: earlier?.waiters ?? new Set() };
    this.decided.delete(proposal.proposalId);
    this.open.set(proposal.proposalId, entry);
    const { proposalId, path, title, original, proposed } = entry;
    await this.ide.review.show({ proposalId, path, title, original, proposed });
    return entry;
  }

  /** Carry out a decision: Accept writes the proposed text over the version it was made against. */
  async decide(proposalId: string, accepted: boolean): Promise<void> {
    const proposal = this.open.get(proposalId);
    if (!proposal || proposal.deciding) return;
    proposal.deciding = true;
    if (accepted) {
      try {
        proposal.version = await this.write(proposal);
        proposal.status = 'accepted';
      } catch (err) {
        proposal.status = 'rejected';
        proposal.failure =
          err instanceof ToolError ? err : new ToolError('INTERNAL', `Writing ${proposal.path} failed: ${(err as Error).message}`);
      }
    } else {
      proposal.status = 'rejected';
    }
    this.open.delete(proposalId);
    this.decided.set(proposalId, proposal);
    for (const id of [...this.decided.keys()].slice(0, Math.max(0, this.decided.size - DECIDED_KEPT))) this.decided.delete(id);
    await this.ide.review.close(proposalId).catch(() => undefined);
    for (const wake of proposal.waiters) wake();
    proposal.waiters.clear();
  }

  /** Wait until the proposal is decided or timeoutMs passed; a decision being carried out is waited for whatever the timeout. */
  async wait(proposal: Proposal, timeoutMs: number): Promise<void> {
    if (proposal.status !== 'pending' || (timeoutMs === 0 && !proposal.deciding)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        proposal.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        if (!proposal.deciding) done();
      }, timeoutMs);
      proposal.waiters.add(done);
    });
  }

  private async write(proposal: Proposal): Promise<string> {
    const { path } = proposal;
    await guardUnsavedWork(this.ide, path, false, 'accepting the proposal');
    if (proposal.baseVersion === null) {
      const now = await this.ide.workspace.stat(path).then(
        () => true,
        () => false,
      );
      if (now) {
        const { version } = await this.ide.workspace.readText(path);
        throw new ToolError('CONFLICT', `${path} was created by someone else while the proposal waited; propose the change again.`, {
          currentVersion: version,
        });
      }
    }
    const written = await this.ide.workspace.writeText(path, proposal.proposed, {
      tool: editorProposeEdit.name,
      context: serializableContext(proposal.context),
      ...(proposal.baseVersion !== null && { baseVersion: proposal.baseVersion }),
    });
    return written.version;
  }
}

const all = statePart((ide) => new Proposals(ide));

/** The proposals of an IDE; an IDE calls this once it has its port, so that decisions are heard from the start. */
export function proposals(ide: IdePort): Proposals {
  return all.of(ide);
}

/** The file as it is now: its text and version, or '' and null when it does not exist yet. */
async function currentFile(ide: IdePort, path: string): Promise<{ text: string; version: string | null }> {
  try {
    const { text, version } = await ide.workspace.readText(path);
    return { text, version };
  } catch (err) {
    if (err instanceof ToolError && err.code === 'FILE_NOT_FOUND') return { text: '', version: null };
    throw err;
  }
}

function answer(proposal: Proposal) {
  if (proposal.failure) throw proposal.failure;
  const { proposalId, path, status, version } = proposal;
  return { proposalId, path, status, ...(version !== undefined && { version }), ...lineDelta(proposal.original, proposal.proposed) };
}

export const editorProposeEditCommand = defineCommand(editorProposeEdit, async (ide, args, context) => {
  const all = proposals(ide);
  const earlier = args.proposalId === undefined ? undefined : all.get(args.proposalId);
  const revises = args.newText !== undefined || args.operations !== undefined;
  if (args.newText !== undefined && args.operations !== undefined) {
    throw new ToolError('INVALID_ARGUMENT', 'Pass newText or operations, not both.', { fields: ['newText', 'operations'] });
  }
  const timeoutMs = args.timeoutMs ?? PROPOSAL_WAIT_MS;
  let proposal = earlier;
  if (!revises) {
    if (args.proposalId === undefined) {
      throw new ToolError('INVALID_ARGUMENT', 'Pass path with newText or operations to propose a change, or proposalId to ask about one.', {
        fields: ['path', 'newText', 'operations', 'proposalId'],
      });
    }
    if (!earlier) {
      throw new ToolError(
        'PROPOSAL_NOT_FOUND',
        `No proposal "${args.proposalId}". Pending: ${
          all
            .pending()
            .map((p) => p.proposalId)
            .join(', ') || 'none'
        }.`,
      );
    }
  } else {
    if (earlier && earlier.status !== 'pending' && args.path === undefined) {
      throw new ToolError('INVALID_ARGUMENT', `Proposal ${earlier.proposalId} was already ${earlier.status}; propose anew with path.`, {
        fields: ['path'],
      });
    }
    const input = args.path ?? earlier?.path;
    if (input === undefined) throw new ToolError('INVALID_ARGUMENT', 'A new proposal needs path.', { fields: ['path'] });
    const path = await ide.workspace.resolve(input);
    if (path === '') throw new ToolError('NOT_A_FILE', 'The workspace root is a directory; give a file path.');
    await guardUnsavedWork(ide, path, false, editorProposeEdit.name);
    const file = await currentFile(ide, path);
    const proposed = args.newText ?? applyPatch(file.text, args.operations!);
    proposal = await all.propose({
      proposalId: args.proposalId ?? all.newId(),
      path,
      title: args.title ?? earlier?.title ?? `Proposed change to ${path}`,
      original: file.text,
      proposed,
      baseVersion: file.version,
      context,
    });
  }
  const review = ide.review;
  if (proposal!.status === 'pending') {
    if (proposal!.deciding) {
      await all.wait(proposal!, timeoutMs);
    } else if (review.autoDecision && !(review.decidesAtAgent && context?.ask)) {
      await all.decide(proposal!.proposalId, review.autoDecision === 'accept');
    } else if (review.decidesAtAgent && context?.ask && timeoutMs > 0) {
      const { added, removed } = lineDelta(proposal!.original, proposal!.proposed);
      const decision = await ideEvents(ide).whileAgentWaits(
        context.ask(`${proposal!.title} (${proposal!.path}: +${added} −${removed} lines). Accept this change?`, timeoutMs),
      );
      if (decision !== undefined) await all.decide(proposal!.proposalId, decision);
    } else {
      await ideEvents(ide).whileAgentWaits(all.wait(proposal!, timeoutMs));
    }
  }
  return answer(proposal!);
});

export default [editorProposeEditCommand];
