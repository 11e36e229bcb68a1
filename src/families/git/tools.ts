import { z } from 'zod';
import { WorkspacePath } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

/** How long a commit or a discard waits for the person's answer before it counts as a no. */
export const GIT_CONFIRM_WAIT_MS = 120_000;
/** The most lines of diff one answer holds; the rest is cut (truncated says so). */
export const MAX_DIFF_LINES = 5000;

const ChangeKind = z
  .enum(['modified', 'added', 'deleted', 'renamed', 'copied', 'type-changed', 'conflicted', 'untracked'])
  .describe('What changed about the file');

export const GitChange = z.object({
  path: z.string().describe('Workspace-relative path'),
  status: ChangeKind,
  oldPath: z.string().optional().describe('Where a renamed or copied file was'),
  added: z.number().int().optional().describe('Lines added (absent for binary files)'),
  removed: z.number().int().optional().describe('Lines removed (absent for binary files)'),
});
export type GitChange = z.output<typeof GitChange>;

export const HunkId = z
  .string()
  .regex(/^[^\u0000]+#[0-9a-f]{8}$/, 'must be a hunk ID as openspace.git.diff gives it ("src/a.ts#1a2b3c4d")')
  .describe('A hunk ID from openspace.git.diff ("<path>#<8 hex digits>")');

export const Hunk = z.object({
  id: HunkId,
  header: z.string().describe('"@@ -oldStart,oldLines +newStart,newLines @@" and the enclosing line git names'),
  oldStart: z.number().int(),
  oldLines: z.number().int(),
  newStart: z.number().int(),
  newLines: z.number().int(),
  lines: z.array(z.string()).describe('The hunk\'s lines, each starting with " ", "-" or "+"'),
});
export type Hunk = z.output<typeof Hunk>;

export const FileDiff = z.object({
  path: z.string(),
  oldPath: z.string().optional(),
  status: ChangeKind,
  binary: z.boolean().optional().describe('A binary file: no hunks'),
  withheld: z.string().optional().describe('Why its lines are not shown (a sensitive file): the sensitive-file pattern it matches'),
  hunks: z.array(Hunk),
});
export type FileDiff = z.output<typeof FileDiff>;

const Paths = z.array(WorkspacePath).min(1).max(1000);
const Hunks = z.array(HunkId).min(1).max(1000);
const PathsOrHunks = z.strictObject({
  paths: Paths.optional().describe('Whole files (directories take everything below them)'),
  hunks: Hunks.optional().describe('Single hunks, by the IDs openspace.git.diff gave'),
});

const Operation = z
  .enum(['merge', 'rebase', 'cherry-pick', 'revert', 'bisect'])
  .describe('An operation git has in progress in the repository (finish or abort it in a terminal)');

export const gitStatus = defineTool({
  name: 'openspace.git.status',
  title: 'Git: Status',
  description:
    "The workspace's git repository: the branch, how far ahead of and behind its upstream, and every changed file, " +
    'staged, unstaged, untracked or conflicted, with lines added and removed. NOT_A_REPOSITORY when the workspace is not in one.',
  input: z.strictObject({}),
  output: z.object({
    branch: z.string().nullable().describe('The current branch; null when HEAD is detached'),
    head: z.string().nullable().describe('The commit HEAD names (null before the first commit)'),
    upstream: z.string().optional(),
    ahead: z.number().int().optional(),
    behind: z.number().int().optional(),
    operation: Operation.optional(),
    staged: z.array(GitChange),
    unstaged: z.array(GitChange),
    untracked: z.array(z.string()),
    conflicted: z.array(z.string()),
  }),
  budget: 'complex',
  effect: 'read-only',
});

export const gitDiff = defineTool({
  name: 'openspace.git.diff',
  title: 'Git: Diff',
  description:
    'The changes as hunks with IDs you can pass to openspace.git.stage, unstage and discard: by default what is not staged yet; ' +
    'staged:true, what is staged; ref, the working tree against a commit ("HEAD~1", a branch). Narrow it with path. ' +
    "A sensitive file's lines are withheld. At most 5000 lines (truncated says when more).",
  input: z.strictObject({
    path: WorkspacePath.optional().describe('A file or directory'),
    staged: z.boolean().optional(),
    ref: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\w./~^@{}-]+$/, 'must be a commit, branch or tag name such as "HEAD~1" or "main"')
      .refine((ref) => !ref.startsWith('-'), 'must not start with "-"')
      .optional(),
  }),
  output: z.object({ files: z.array(FileDiff), truncated: z.boolean() }),
  budget: 'complex',
  effect: 'read-only',
});

export const gitStage = defineTool({
  name: 'openspace.git.stage',
  title: 'Git: Stage',
  description:
    'Stage whole files (paths) or single hunks (their IDs from openspace.git.diff) for the next commit. ' +
    'HUNK_NOT_FOUND when a hunk no longer applies: ask openspace.git.diff again.',
  input: PathsOrHunks,
  output: z.object({
    staged: z.array(z.string()).describe('The paths and hunk IDs staged'),
    status: z.array(GitChange).describe('What is staged now'),
  }),
  budget: 'complex',
  effect: 'write',
  session: {},
});

export const gitUnstage = defineTool({
  name: 'openspace.git.unstage',
  title: 'Git: Unstage',
  description:
    'Take whole files (paths) or single staged hunks (IDs from openspace.git.diff with staged:true) out of the next commit; the files keep their changes.',
  input: PathsOrHunks,
  output: z.object({ unstaged: z.array(z.string()), status: z.array(GitChange).describe('What is staged now') }),
  budget: 'complex',
  effect: 'write',
  session: {},
});

export const gitDiscard = defineTool({
  name: 'openspace.git.discard',
  title: 'Git: Discard Changes',
  description:
    "Throw away unstaged changes: whole files (paths) back to their staged content, or single hunks (IDs from openspace.git.diff). The person confirms, seeing what is lost; the files are written through the workspace's store, so openspace.file.snapshots keeps what was there. " +
    'Untracked files are not deleted. CONFIRMATION_DENIED when the person says no.',
  input: PathsOrHunks,
  output: z.object({ discarded: z.array(z.string()), files: z.array(z.object({ path: z.string(), version: z.string() })) }),
  budget: 'complex',
  effect: 'destructive',
  waitsUpTo: () => GIT_CONFIRM_WAIT_MS,
  session: {},
});

export const gitCommit = defineTool({
  name: 'openspace.git.commit',
  title: 'Git: Commit',
  description:
    'Commit what is staged with this message. The person confirms, seeing the message and the staged changes; ' +
    "only then do the repository's commit hooks run. NOTHING_TO_COMMIT when nothing is staged; CONFIRMATION_DENIED when the person says no.",
  input: z.strictObject({ message: z.string().trim().min(1).max(10_000) }),
  output: z.object({
    commit: z.string().describe('The new commit hash'),
    branch: z.string().nullable(),
    summary: z.string().describe('Its first line'),
    files: z.number().int().describe('Files it changed'),
  }),
  budget: 'complex',
  effect: 'write',
  waitsUpTo: () => GIT_CONFIRM_WAIT_MS,
  session: {},
});

export const gitLog = defineTool({
  name: 'openspace.git.log',
  title: 'Git: Log',
  description: 'The latest commits of the current branch, newest first (default 20, at most 200); with path, those that changed it.',
  input: z.strictObject({
    count: z.number().int().min(1).max(200).optional(),
    path: WorkspacePath.optional(),
  }),
  output: z.object({
    commits: z.array(
      z.object({
        commit: z.string(),
        author: z.string(),
        email: z.string(),
        date: z.string().describe('ISO 8601'),
        summary: z.string(),
      }),
    ),
  }),
  budget: 'complex',
  effect: 'read-only',
});

export const gitBranches = defineTool({
  name: 'openspace.git.branches',
  title: 'Git: Branches',
  description: "The repository's local branches: which is current, each one's upstream and how far ahead and behind, and its last commit.",
  input: z.strictObject({}),
  output: z.object({
    branches: z.array(
      z.object({
        name: z.string(),
        current: z.boolean(),
        commit: z.string(),
        summary: z.string(),
        upstream: z.string().optional(),
        ahead: z.number().int().optional(),
        behind: z.number().int().optional(),
      }),
    ),
  }),
  budget: 'complex',
  effect: 'read-only',
});

export const gitWorktrees = defineTool({
  name: 'openspace.git.worktrees',
  title: 'Git: Worktrees',
  description: "The repository's checkouts (git worktree): each one's directory, branch and commit, and which is this workspace's.",
  input: z.strictObject({}),
  output: z.object({
    worktrees: z.array(
      z.object({
        path: z.string().describe('Absolute directory'),
        branch: z.string().nullable(),
        commit: z.string().nullable(),
        current: z.boolean().describe("This workspace's checkout"),
        bare: z.boolean().optional(),
      }),
    ),
  }),
  budget: 'complex',
  effect: 'read-only',
});

export default [gitStatus, gitDiff, gitStage, gitUnstage, gitDiscard, gitCommit, gitLog, gitBranches, gitWorktrees] as const;
