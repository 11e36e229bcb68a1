import { gitBranches, gitCommit, gitDiff, gitDiscard, gitLog, gitStage, gitStatus, gitUnstage, gitWorktrees } from './tools.js';
import { serializableContext, ToolError, type CallContext } from '../../contract/index.js';
import type { ActionQuestion } from '../../contract/port.js';
import { defineNodeCommand } from '../../commands/command.js';
import type { NodeIde } from '../index.js';
import type { GitTarget } from './port.js';
import { renderDiffText } from './parse.js';

/** The most characters of a diff a question to the person at the agent's side carries. */
const MAX_ASKED_DETAIL = 4000;

/** The paths an agent gave, checked by the path guard, and its hunk IDs: at least one of them. */
async function target(ide: NodeIde, args: { paths?: string[]; hunks?: string[] }): Promise<GitTarget> {
  if (!args.paths?.length && !args.hunks?.length) {
    throw new ToolError('INVALID_ARGUMENT', 'Pass paths (whole files) or hunks (IDs from openspace.git.diff), or both.', {
      field: 'paths',
    });
  }
  const paths = args.paths && (await Promise.all(args.paths.map((p) => ide.workspace.resolve(p))));
  return { ...(paths ? { paths } : {}), ...(args.hunks ? { hunks: args.hunks } : {}) };
}

/**
 * The person's yes to an agent's git action: in the IDE's own dialog, else at the agent's side
 * (MCP elicitation). With no one to ask it is refused; a no or no answer is CONFIRMATION_DENIED.
 * Where the person turned confirmations off (openspace.security.confirmDangerousCommands), it runs.
 */
/** Whether confirm() will ask anyone: not for the person's own command, nor where they turned confirmations off. */
function asks(ide: NodeIde, context: CallContext | undefined): boolean {
  return context !== undefined && (ide.security?.confirmDangerousCommands?.() ?? true);
}

async function confirm(ide: NodeIde, question: ActionQuestion, context: CallContext | undefined): Promise<void> {
  if (!context || !asks(ide, context)) return;
  let answer: boolean | undefined;
  if (ide.security?.confirmAction) answer = await ide.security.confirmAction(question);
  else if (context.ask) {
    const detail =
      question.detail && question.detail.length > MAX_ASKED_DETAIL ? `${question.detail.slice(0, MAX_ASKED_DETAIL)}\n…` : question.detail;
    answer = await context.ask(`${question.title} ${question.message}${detail ? `\n\n${detail}` : ''}`);
  } else {
    throw new ToolError(
      'CONFIRMATION_REQUIRED',
      `${question.title} A person must confirm this; this IDE has no one to ask and the MCP client offers no way to ask (elicitation). Nothing was done.`,
    );
  }
  if (answer !== true)
    throw new ToolError(
      'CONFIRMATION_DENIED',
      `The person did not confirm: ${question.title} Nothing was done; do not retry without asking them.`,
    );
}

export const gitStatusCommand = defineNodeCommand(gitStatus, (ide) => ide.git.status());

export const gitDiffCommand = defineNodeCommand(gitDiff, async (ide, args) => {
  const path = args.path === undefined ? undefined : await ide.workspace.resolve(args.path);
  return ide.git.diff({ path, staged: args.staged, ref: args.ref });
});

export const gitStageCommand = defineNodeCommand(gitStage, async (ide, args) => {
  await ide.git.stage(await target(ide, args));
  return { staged: [...(args.paths ?? []), ...(args.hunks ?? [])], status: (await ide.git.status()).staged };
});

export const gitUnstageCommand = defineNodeCommand(gitUnstage, async (ide, args) => {
  await ide.git.unstage(await target(ide, args));
  return { unstaged: [...(args.paths ?? []), ...(args.hunks ?? [])], status: (await ide.git.status()).staged };
});

export const gitDiscardCommand = defineNodeCommand(gitDiscard, async (ide, args, context) => {
  const plans = await ide.git.discardPlan(await target(ide, args));
  // An editor holding a person's unsaved changes to a file is never overwritten from under them.
  for (const { path } of plans) {
    if ((await ide.editors.get(path))?.isDirty) {
      throw new ToolError(
        'DIRTY_BUFFER',
        `${path} has unsaved changes in an editor; nothing was discarded. Ask the person to save or revert them.`,
        {
          path,
        },
      );
    }
  }
  const removed = plans.reduce((n, p) => n + p.lost.hunks.reduce((m, h) => m + h.lines.filter((l) => l.startsWith('+')).length, 0), 0);
  await confirm(
    ide,
    {
      title: `Discard changes in ${plans.length === 1 ? plans[0]!.path : `${plans.length} files`}?`,
      message: `The agent wants to throw away ${removed} changed line${removed === 1 ? '' : 's'}; the files go back to their staged content. OpenSpace keeps a snapshot of each file as it is now (openspace.file.snapshots).`,
      detail: renderDiffText(
        plans.map((p) => p.lost),
        false,
      ),
      accept: 'Discard',
    },
    context,
  );
  const files = [];
  for (const plan of plans) {
    const { version } = await ide.workspace.writeText(plan.path, plan.text, {
      context: serializableContext(context),
      tool: gitDiscard.name,
    });
    files.push({ path: plan.path, version });
  }
  return { discarded: [...(args.paths ?? []), ...(args.hunks ?? [])], files };
});

export const gitCommitCommand = defineNodeCommand(gitCommit, async (ide, args, context) => {
  const status = await ide.git.status();
  if (status.conflicted.length > 0) {
    throw new ToolError(
      'MERGE_CONFLICT',
      `${status.conflicted.join(', ')} still have conflicts: resolve them and stage them, then commit.`,
      {
        conflicted: status.conflicted,
      },
    );
  }
  if (status.staged.length === 0)
    throw new ToolError('NOTHING_TO_COMMIT', 'Nothing is staged: stage changes with openspace.git.stage first.');
  // The staged diff is for the person's eyes: not asked for when no one is asked.
  const patch = asks(ide, context) ? await ide.git.stagedPatch() : '';
  const summary = args.message.split('\n')[0]!;
  const files = status.staged.map((c) => `${c.path} (+${c.added ?? 0} −${c.removed ?? 0})`).join(', ');
  await confirm(
    ide,
    {
      title: `Commit to ${status.branch ?? 'a detached HEAD'}: "${summary}"?`,
      message: `The agent wants to commit ${status.staged.length} file${status.staged.length === 1 ? '' : 's'}: ${files}. The repository's commit hooks run if you allow it.`,
      detail: `${args.message}\n\n${patch}`,
      accept: 'Commit',
    },
    context,
  );
  return ide.git.commit(args.message);
});

export const gitLogCommand = defineNodeCommand(gitLog, async (ide, args) => {
  const path = args.path === undefined ? undefined : await ide.workspace.resolve(args.path);
  return { commits: await ide.git.log({ count: args.count ?? 20, path }) };
});

export const gitBranchesCommand = defineNodeCommand(gitBranches, async (ide) => ({ branches: await ide.git.branches() }));

export const gitWorktreesCommand = defineNodeCommand(gitWorktrees, async (ide) => ({ worktrees: await ide.git.worktrees() }));

export default [
  gitStatusCommand,
  gitDiffCommand,
  gitStageCommand,
  gitUnstageCommand,
  gitDiscardCommand,
  gitCommitCommand,
  gitLogCommand,
  gitBranchesCommand,
  gitWorktreesCommand,
];
