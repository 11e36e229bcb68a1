import type { FileDiff, GitChange } from './tools.js';

/** Whole files or single hunks (IDs from a diff): paths workspace-relative and checked by the path guard. */
export interface GitTarget {
  paths?: string[];
  hunks?: string[];
}

/** The repository's state as openspace.git.status answers it. */
export interface GitStatusInfo {
  branch: string | null;
  head: string | null;
  upstream?: string;
  ahead?: number;
  behind?: number;
  operation?: 'merge' | 'rebase' | 'cherry-pick' | 'revert' | 'bisect';
  staged: GitChange[];
  unstaged: GitChange[];
  untracked: string[];
  conflicted: string[];
}

export interface GitCommitInfo {
  commit: string;
  author: string;
  email: string;
  date: string;
  summary: string;
}

export interface GitBranchInfo {
  name: string;
  current: boolean;
  commit: string;
  summary: string;
  upstream?: string;
  ahead?: number;
  behind?: number;
}

export interface GitWorktreeInfo {
  path: string;
  branch: string | null;
  commit: string | null;
  current: boolean;
  bare?: boolean;
}

/**
 * The workspace's git repository, as the `git` program sees it, run so that nothing the repository
 * configures to run does (hooks, fsmonitor, diff drivers, filters), except the commit hooks of a
 * commit the person confirmed. Paths are workspace-relative. Throws NOT_A_REPOSITORY when the
 * workspace is in none (the in-memory demo workspace is in none), HUNK_NOT_FOUND for a hunk that no
 * longer applies, MERGE_CONFLICT, NOTHING_TO_COMMIT, GIT_FAILED.
 */
export interface GitPort {
  status(): Promise<GitStatusInfo>;
  /** Hunks with IDs; a sensitive file's lines are withheld. */
  diff(options: { path?: string; staged?: boolean; ref?: string }): Promise<{ files: FileDiff[]; truncated: boolean }>;
  stage(target: GitTarget): Promise<void>;
  unstage(target: GitTarget): Promise<void>;
  /** What discarding the unstaged changes would leave in each file, and the diff that is lost; nothing is written. */
  discardPlan(target: GitTarget): Promise<{ path: string; text: string; lost: FileDiff }[]>;
  /** What is staged, as a diff for a person to read (a sensitive file's lines withheld). */
  stagedPatch(): Promise<string>;
  /** Commit what is staged, running the repository's commit hooks: only after the person said yes. */
  commit(message: string): Promise<{ commit: string; branch: string | null; summary: string; files: number }>;
  log(options: { count: number; path?: string }): Promise<GitCommitInfo[]>;
  /**
   * Files' texts as staged (`index`) or as last committed (`HEAD`), as a checkout would write them;
   * undefined where a file has none. For the person's views (a diff, the editor's change markers,
   * every open editor's after each change, so read together), not a tool: it does not check the
   * sensitive-file patterns.
   */
  originals(wanted: { path: string; ref: 'index' | 'HEAD' }[]): Promise<(string | undefined)[]>;
  /** Stage this text as the file's (the person stages one change from the editor's change markers). */
  stageText(path: string, text: string): Promise<void>;
  branches(): Promise<GitBranchInfo[]>;
  worktrees(): Promise<GitWorktreeInfo[]>;
}
