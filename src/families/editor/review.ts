/**
 * Edits the person reviews (issues 14 and 30): openspace.editor.propose_edit shows a change to one
 * file or a change set across files as diffs (ReviewPort), and the person accepts or rejects each
 * hunk, a file's remaining hunks, or all. The proposals live here, shared by both IDEs: a file is
 * written when its last hunk is decided (through the artifact store, only over the version the
 * proposal was made against, with the accepted hunks only), whether or not an agent call is
 * waiting; a call that waited in vain answers `pending`, and a later call asks again.
 */
import { statePart } from '../../commands/ide-state.js';
import { editorProposeEdit, PROPOSAL_WAIT_MS } from './tools.js';
import { serializableContext, ToolError, type CallContext } from '../../contract/index.js';
import type { IdePort } from '../index.js';
import { applyPatch } from '../../store/patch-engine.js';
import { defineCommand } from '../../commands/command.js';
import { ideEvents } from '../../commands/event-log.js';
import { guardUnsavedWork } from '../file/commands.js';
import { applyHunks, hunksOf, reviewed, segmentsOf, type Hunk, type HunkDecision, type Segment } from './hunks.js';
import type { ProposalView, ReviewDecision } from './port.js';

/** Decided proposals kept so that a late call still learns the decision. */
const DECIDED_KEPT = 100;

type Status = 'pending' | 'accepted' | 'rejected' | 'partial';

export interface ProposedFile {
  path: string;
  original: string;
  proposed: string;
  segments: Segment[];
  hunks: Hunk[];
  /** One per hunk, in order. */
  decisions: HunkDecision[];
  /** The file's version the proposal was made against; null: the file did not exist. */
  baseVersion: string | null;
  /** Every hunk decided and the file written (or left as it was). */
  done: boolean;
  /** The version written. */
  version?: string;
  /** Why the accepted hunks could not be written (the file moved on). */
  failure?: ToolError;
  /**
   * A change already made (an agent's own edit, reviewed afterwards): the file holds `proposed` at
   * baseVersion, and a rejected hunk is put back as `original` had it. `created`: the file did not
   * exist before; rejecting all of it leaves it to the caller to remove.
   */
  applied?: { created: boolean };
}

interface Proposal {
  proposalId: string;
  title: string;
  files: ProposedFile[];
  /** Who proposed, for the audit of the writes. */
  context?: CallContext;
  /** The decisions being carried out, one after another. */
  work: Promise<void>;
  busy: number;
  waiters: Set<() => void>;
}

/** A new file of a proposal: its hunks, all undecided. */
export function proposedFile(path: string, original: string, proposed: string, baseVersion: string | null): ProposedFile {
  const segments = segmentsOf(original, proposed);
  const hunks = hunksOf(segments);
  return { path, original, proposed, segments, hunks, decisions: hunks.map(() => 'pending'), baseVersion, done: false };
}

function statusOf(decisions: readonly HunkDecision[]): Status {
  if (decisions.includes('pending')) return 'pending';
  if (decisions.every((d) => d === 'accepted')) return 'accepted';
  return decisions.includes('accepted') ? 'partial' : 'rejected';
}

function fileStatus(file: ProposedFile): Status {
  return file.done ? statusOf(file.decisions) : 'pending';
}

function proposalStatus(proposal: Proposal): Status {
  if (proposal.files.some((f) => !f.done)) return 'pending';
  return statusOf(proposal.files.flatMap((f) => f.decisions));
}

/** What the person sees of one file. */
function viewOf(proposal: Proposal, file: ProposedFile): ProposalView {
  const { text, hunks } = reviewed(file.segments, file.decisions);
  const { proposalId, title, files } = proposal;
  return {
    proposalId,
    title,
    path: file.path,
    file: files.indexOf(file) + 1,
    files: files.length,
    original: file.original,
    proposed: text,
    hunks,
    ...(file.applied && { applied: true }),
  };
}

/** The proposals of one IDE, and the decisions its person makes on them. */
export class Proposals {
  private readonly open = new Map<string, Proposal>();
  private readonly decided = new Map<string, Proposal>();
  private next = 1;

  constructor(private readonly ide: IdePort) {
    ide.review.onDecision((decision) => void this.decide(decision));
  }

  get(proposalId: string): Proposal | undefined {
    return this.open.get(proposalId) ?? this.decided.get(proposalId);
  }

  /** The IDs of the proposals still pending. */
  pending(): string[] {
    return [...this.open.keys()];
  }

  newId(): string {
    while (this.get(`proposal-${this.next}`)) this.next++;
    return `proposal-${this.next++}`;
  }

  /** Record and show a new proposal, or a revision of a pending one (its files as given now, every hunk undecided). */
  async propose(proposalId: string, title: string, files: ProposedFile[], context: CallContext | undefined): Promise<Proposal> {
    const earlier = this.open.get(proposalId);
    if (earlier) await earlier.work;
    const proposal: Proposal = {
      proposalId,
      title,
      files,
      context,
      work: Promise.resolve(),
      busy: 0,
      waiters: earlier?.waiters ?? new Set(),
    };
    this.decided.delete(proposalId);
    this.open.set(proposalId, proposal);
    for (const gone of earlier?.files.filter((f) => !f.done && !files.some((g) => g.path === f.path)) ?? []) {
      await this.ide.review.close(proposalId, gone.path).catch(() => undefined);
    }
    for (const file of files) await this.ide.review.show(viewOf(proposal, file));
    return proposal;
  }

  /** Carry out a decision; a file whose last hunk it decides is written with its accepted hunks. */
  decide(decision: ReviewDecision): Promise<void> {
    const proposal = this.open.get(decision.proposalId);
    if (!proposal) return Promise.resolve();
    proposal.busy++;
    proposal.work = proposal.work
      .then(() => this.carryOut(proposal, decision))
      .finally(() => {
        proposal.busy--;
        if (proposal.busy === 0) for (const wake of [...proposal.waiters]) wake();
      });
    return proposal.work;
  }

  private async carryOut(proposal: Proposal, { path, hunk, accepted }: ReviewDecision): Promise<void> {
    if (this.open.get(proposal.proposalId) !== proposal) return;
    for (const file of proposal.files) {
      if (file.done || (path !== undefined && file.path !== path)) continue;
      file.decisions = file.decisions.map((d, i) =>
        d === 'pending' && (hunk === undefined || hunk === i + 1) ? (accepted ? 'accepted' : 'rejected') : d,
      );
      if (file.decisions.includes('pending')) await this.ide.review.show(viewOf(proposal, file)).catch(() => undefined);
      else await this.finish(proposal, file);
    }
    if (proposal.files.every((f) => f.done)) {
      this.open.delete(proposal.proposalId);
      this.decided.set(proposal.proposalId, proposal);
      for (const id of [...this.decided.keys()].slice(0, Math.max(0, this.decided.size - DECIDED_KEPT))) this.decided.delete(id);
    }
  }

  /** Wait until the proposal is decided or timeoutMs passed; a decision being carried out is waited for whatever the timeout. */
  async wait(proposal: Proposal, timeoutMs: number): Promise<void> {
    if (proposalStatus(proposal) !== 'pending' || (timeoutMs === 0 && proposal.busy === 0)) return;
    await new Promise<void>((resolve) => {
      let expired = false;
      const done = () => {
        if (proposalStatus(proposal) === 'pending' && !expired) return;
        if (proposal.busy > 0) return;
        clearTimeout(timer);
        proposal.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        expired = true;
        done();
      }, timeoutMs);
      proposal.waiters.add(done);
    });
  }

  /** Every hunk of the file is decided: write the accepted ones (of a change already made: undo the rejected ones), and close its diff. */
  private async finish(proposal: Proposal, file: ProposedFile): Promise<void> {
    const accepted = file.decisions.includes('accepted');
    const rejected = file.decisions.includes('rejected');
    if (file.applied ? rejected && (accepted || !file.applied.created) : accepted) {
      try {
        file.version = await this.write(proposal, file);
      } catch (err) {
        file.failure = err instanceof ToolError ? err : new ToolError('INTERNAL', `Writing ${file.path} failed: ${(err as Error).message}`);
      }
    }
    file.done = true;
    await this.ide.review.close(proposal.proposalId, file.path).catch(() => undefined);
  }

  private async write(proposal: Proposal, file: ProposedFile): Promise<string> {
    const { path } = file;
    await guardUnsavedWork(this.ide, path, false, file.applied ? 'undoing the rejected changes' : 'accepting the proposal');
    if (file.baseVersion === null && !file.applied) {
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
    const text = applyHunks(file.segments, (hunk) => file.decisions[hunk - 1] === 'accepted');
    const written = await this.ide.workspace.writeText(path, text, {
      tool: file.applied ? REVIEW_APPLIED : editorProposeEdit.name,
      context: serializableContext(proposal.context),
      ...(file.baseVersion !== null && { baseVersion: file.baseVersion }),
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
  const files = proposal.files.map((f) => ({
    path: f.path,
    status: fileStatus(f),
    ...(f.version !== undefined && { version: f.version }),
    hunks: f.hunks.map((h, i) => ({ ...h, decision: f.decisions[i]! })),
  }));
  const failed = proposal.files.filter((f) => f.failure);
  if (failed.length > 0) {
    const first = failed[0]!.failure!;
    const written = proposal.files.filter((f) => f.version !== undefined).map((f) => f.path);
    throw new ToolError(
      first.code,
      `${first.message}${
        failed.length > 1
          ? ` Not written either: ${failed
              .slice(1)
              .map((f) => f.path)
              .join(', ')}.`
          : ''
      }` + (written.length > 0 ? ` Written as decided: ${written.join(', ')}.` : ''),
      { ...first.details, files },
    );
  }
  const { added, removed } = linesOf(proposal.files);
  const single = proposal.files.length === 1 ? files[0]! : undefined;
  return {
    proposalId: proposal.proposalId,
    status: proposalStatus(proposal),
    ...(single && { path: single.path, ...(single.version !== undefined && { version: single.version }) }),
    added,
    removed,
    files,
  };
}

type Edit = { path: string; newText?: string; operations?: Parameters<typeof applyPatch>[1] };

/** The edits of a call: `edits`, or the one file of path with newText or operations. */
function editsOf(
  args: { path?: string; newText?: string; operations?: Edit['operations']; edits?: Edit[] },
  earlier?: Proposal,
): Edit[] | undefined {
  const single = args.newText !== undefined || args.operations !== undefined;
  if (args.edits !== undefined) {
    if (single || args.path !== undefined) {
      throw new ToolError('INVALID_ARGUMENT', 'Pass edits, or path with newText or operations, not both.', { fields: ['edits', 'path'] });
    }
    return args.edits;
  }
  if (!single) return undefined;
  const path = args.path ?? (earlier?.files.length === 1 ? earlier.files[0]!.path : undefined);
  if (path === undefined) throw new ToolError('INVALID_ARGUMENT', 'A new proposal needs path (or edits).', { fields: ['path', 'edits'] });
  return [{ path, newText: args.newText, operations: args.operations }];
}

export const editorProposeEditCommand = defineCommand(editorProposeEdit, async (ide, args, context) => {
  const all = proposals(ide);
  const earlier = args.proposalId === undefined ? undefined : all.get(args.proposalId);
  const edits = editsOf(args, earlier);
  const timeoutMs = args.timeoutMs ?? PROPOSAL_WAIT_MS;
  let proposal = earlier;
  if (!edits) {
    if (args.proposalId === undefined) {
      throw new ToolError(
        'INVALID_ARGUMENT',
        'Pass path with newText or operations, or edits, to propose a change, or proposalId to ask about one.',
        {
          fields: ['path', 'newText', 'operations', 'edits', 'proposalId'],
        },
      );
    }
    if (!earlier) {
      throw new ToolError('PROPOSAL_NOT_FOUND', `No proposal "${args.proposalId}". Pending: ${all.pending().join(', ') || 'none'}.`);
    }
  } else {
    if (earlier && proposalStatus(earlier) !== 'pending' && args.path === undefined && args.edits === undefined) {
      throw new ToolError(
        'INVALID_ARGUMENT',
        `Proposal ${earlier.proposalId} was already ${proposalStatus(earlier)}; propose anew with path or edits.`,
        {
          fields: ['path', 'edits'],
        },
      );
    }
    const files: ProposedFile[] = [];
    for (const [i, edit] of edits.entries()) {
      const field = args.edits ? `edits.${i}` : 'newText';
      if ((edit.newText === undefined) === (edit.operations === undefined)) {
        throw new ToolError('INVALID_ARGUMENT', `Pass newText or operations${args.edits ? ` for ${edit.path}` : ''}, not both.`, {
          fields: [args.edits ? field : 'newText', 'operations'],
        });
      }
      const path = await ide.workspace.resolve(edit.path);
      if (path === '') throw new ToolError('NOT_A_FILE', 'The workspace root is a directory; give a file path.');
      if (files.some((f) => f.path === path))
        throw new ToolError('INVALID_ARGUMENT', `${path} is in edits twice; give each file once.`, { fields: [field] });
      await guardUnsavedWork(ide, path, false, editorProposeEdit.name);
      const file = await currentFile(ide, path);
      const proposed = edit.newText ?? applyPatch(file.text, edit.operations!);
      if (proposed === file.text) throw new ToolError('INVALID_ARGUMENT', `The proposal changes nothing in ${path}.`, { fields: [field] });
      files.push(proposedFile(path, file.text, proposed, file.version));
    }
    const title =
      args.title ??
      earlier?.title ??
      (files.length === 1 ? `Proposed change to ${files[0]!.path}` : `Proposed changes to ${files.length} files`);
    proposal = await all.propose(args.proposalId ?? all.newId(), title, files, context);
  }
  await decide(ide, all, proposal!, timeoutMs, context);
  return answer(proposal!);
});

/** What the audit log names a review of changes already made. */
export const REVIEW_APPLIED = 'openspace.review.changes';

/**
 * Show changes already made to files (an agent's own edits in the chat) as a change set the person
 * reviews hunk by hunk: accepting keeps a hunk, rejecting puts back what `before` had there.
 * `before` null: the file did not exist. Files as they were before are left out; resolves with the
 * proposal, or undefined when no file changed.
 */
export async function reviewApplied(
  ide: IdePort,
  title: string,
  changes: readonly { path: string; before: string | null }[],
): Promise<{ proposalId: string; done: Promise<ReturnType<typeof answer>>; files: ProposedFile[] } | undefined> {
  const files: ProposedFile[] = [];
  for (const { path, before } of changes) {
    const now = await currentFile(ide, path);
    if (now.text === (before ?? '') && (now.version === null) === (before === null)) continue;
    files.push({ ...proposedFile(path, before ?? '', now.text, now.version), applied: { created: before === null } });
  }
  if (files.length === 0) return undefined;
  const all = proposals(ide);
  const proposal = await all.propose(all.newId(), title, files, undefined);
  const done = all.wait(proposal, 2 ** 31 - 1).then(() => answer(proposal));
  return { proposalId: proposal.proposalId, done, files };
}

/** Propose files made elsewhere (search and replace) as a new change set, and answer as propose_edit does. */
export async function proposeFiles(
  ide: IdePort,
  files: ProposedFile[],
  options: { proposalId?: string; title: string; timeoutMs?: number },
  context: CallContext | undefined,
): Promise<ReturnType<typeof answer>> {
  const all = proposals(ide);
  const proposal = await all.propose(options.proposalId ?? all.newId(), options.title, files, context);
  await decide(ide, all, proposal, options.timeoutMs ?? PROPOSAL_WAIT_MS, context);
  return answer(proposal);
}

/** Have the proposal decided as this IDE can: the person at the agent's side, the simulated IDE's setting, or the person in the IDE. */
async function decide(
  ide: IdePort,
  all: Proposals,
  proposal: Proposal,
  timeoutMs: number,
  context: CallContext | undefined,
): Promise<void> {
  if (proposalStatus(proposal) !== 'pending') return;
  const review = ide.review;
  const { proposalId } = proposal;
  if (review.decidesAtAgent && context?.askEach && timeoutMs > 0 && proposal.busy === 0) {
    const open = proposal.files.flatMap((file) =>
      file.hunks
        .filter((_, i) => file.decisions[i] === 'pending')
        .map((h) => ({ file, hunk: h.hunk, key: `hunk${proposal.files.indexOf(file) + 1}_${h.hunk}`, title: hunkTitle(file, h) })),
    );
    const { added, removed } = linesOf(proposal.files);
    const paths = proposal.files.map((f) => f.path).join(', ');
    const answers = await ideEvents(ide).whileAgentWaits(
      context.askEach(`${proposal.title} (${paths}: +${added} −${removed} lines). Keep each change you accept:`, open, timeoutMs),
    );
    if (answers)
      for (const { file, hunk, key } of open) await all.decide({ proposalId, path: file.path, hunk, accepted: answers[key] === true });
  } else if (review.autoDecision && !(review.decidesAtAgent && context?.askEach)) {
    await all.decide({ proposalId, accepted: review.autoDecision === 'accept' });
  } else {
    await ideEvents(ide).whileAgentWaits(all.wait(proposal, timeoutMs));
  }
}

function hunkTitle(file: ProposedFile, hunk: Hunk): string {
  const where =
    hunk.oldLines === 0
      ? hunk.oldStart === 1
        ? 'at the start'
        : `after line ${hunk.oldStart - 1}`
      : hunk.oldLines === 1
        ? `line ${hunk.oldStart}`
        : `lines ${hunk.oldStart}–${hunk.oldStart + hunk.oldLines - 1}`;
  return `${file.path}, ${where}: +${hunk.newLines} −${hunk.oldLines}`;
}

/** Lines added and removed by every hunk of the files. */
function linesOf(files: readonly ProposedFile[]): { added: number; removed: number } {
  const hunks = files.flatMap((f) => f.hunks);
  return { added: hunks.reduce((n, h) => n + h.newLines, 0), removed: hunks.reduce((n, h) => n + h.oldLines, 0) };
}

export default [editorProposeEditCommand];
