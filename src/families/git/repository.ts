/**
 * The git family's port on a workspace on disk: the `git` program (Node only: src/node.ts exports
 * it; the sim and Theia's backend make one per workspace). What an agent's call makes git do never
 * runs what the repository configures to run — no hooks, no fsmonitor, no diff or textconv
 * drivers, no clean or smudge filters, no transport — except the commit hooks of a commit the
 * person confirmed (`commit`). Git's own environment variables of the process (GIT_DIR, GIT_CONFIG_*,
 * …) are not passed on: the repository is the workspace's, configured by its files.
 */
import { createHash } from 'node:crypto';
import { access, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { ToolError } from '../../contract/index.js';
import type { FilePolicy } from '../../security/file-policy.js';
import type { GitBranchInfo, GitCommitInfo, GitPort, GitStatusInfo, GitTarget, GitWorktreeInfo } from './port.js';
import { MAX_DIFF_LINES, type FileDiff, type GitChange, type Hunk } from './tools.js';
import { parseDiff, parseNumstat, parseStatus, renderDiffText, revertHunks } from './parse.js';
import { gitFailure, run, type RunOptions } from './program.js';

/** Up to this many changed files, status counts their lines by naming them; beyond, by looking at every file. */
const MAX_COUNTED_PATHS = 200;

/** Whatever the repository's or the person's config says, for every command an agent's call runs. */
const NEUTRAL = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.quotePath', 'false'],
  ['core.pager', 'cat'],
  ['protocol.allow', 'never'],
  ['log.showSignature', 'false'],
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['color.ui', 'false'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`]);

/** Where the repository is. */
interface Place {
  /** The repository's top directory. */
  top: string;
  /** The workspace's place in it ("" or "packages/app/"). */
  prefix: string;
  gitDir: string;
  commonDir: string;
}

interface Repo {
  /** -c options that switch off every configured filter driver: known before git runs for a call. */
  noFilters: string[];
  /** Asked beside the call's first command (NOT_A_REPOSITORY when there is none). */
  place: Promise<Place>;
}

export class GitRepository implements GitPort {
  constructor(
    private readonly root: string,
    private readonly policy: FilePolicy,
  ) {}

  async status(): Promise<GitStatusInfo> {
    const repo = await this.repo();
    const [status, place, operation] = await Promise.all([
      this.git(repo, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--ignore-submodules=all', '--', '.']),
      repo.place,
      repo.place.then((p) => this.operation(p)),
    ]);
    const info = parseStatus(status, place.prefix);
    // Line counts of the files that changed only: git looks at those, not at every file again.
    const counted = async (changes: GitChange[], staged: boolean) => {
      if (changes.length === 0) return changes;
      const paths = changes.length <= MAX_COUNTED_PATHS ? changes.flatMap((c) => (c.oldPath ? [c.oldPath, c.path] : [c.path])) : ['.'];
      const args = ['diff', '--numstat', '-z', '--no-ext-diff', '--no-textconv', '--relative', ...(staged ? ['--cached', '-M'] : [])];
      const byPath = parseNumstat(await this.git(repo, [...args, '--', ...paths]));
      return changes.map((c) => ({ ...c, ...byPath.get(c.path) }));
    };
    const [staged, unstaged] = await Promise.all([counted(info.staged, true), counted(info.unstaged, false)]);
    return { ...info, staged, unstaged, ...(operation ? { operation } : {}) };
  }

  async diff(options: { path?: string; staged?: boolean; ref?: string }): Promise<{ files: FileDiff[]; truncated: boolean }> {
    const repo = await this.repo();
    const kind = options.ref ? `ref:${options.ref}` : options.staged ? 'index' : 'worktree';
    const args = ['diff', '--no-ext-diff', '--no-textconv', '--relative', '-M', '-U3'];
    if (options.staged) args.push('--cached');
    if (options.ref) {
      await this.git(repo, ['rev-parse', '--verify', '--quiet', `${options.ref}^{commit}`], { ok: [1] }).then((sha) => {
        if (!sha.trim()) throw new ToolError('INVALID_ARGUMENT', `"${options.ref}" names no commit in this repository.`, { field: 'ref' });
      });
      args.push(options.ref);
    }
    args.push('--', options.path ?? '.');
    const files = parseDiff(await this.git(repo, args), (path, text) => hunkId(kind, path, text));
    let lines = 0;
    let truncated = false;
    const shown: FileDiff[] = [];
    for (const file of files) {
      const pattern = this.policy.isSensitive(file.path) ?? (file.oldPath ? this.policy.isSensitive(file.oldPath) : undefined);
      if (pattern) {
        shown.push({ ...file, hunks: [], withheld: pattern });
        continue;
      }
      const size = file.hunks.reduce((n, h) => n + h.lines.length + 1, 0);
      if (lines + size > MAX_DIFF_LINES && shown.length > 0) {
        truncated = true;
        break;
      }
      lines += size;
      shown.push(file);
    }
    return { files: shown, truncated };
  }

  async stage(target: GitTarget): Promise<void> {
    const repo = await this.repo();
    if (target.paths?.length) {
      const pathspecs = target.paths.map((p) => p || '.');
      // What `add` would take: a sensitive file among it is refused before anything is staged.
      const planned = await this.git(repo, ['add', '--dry-run', '-A', '--', ...pathspecs]);
      const paths = [...planned.matchAll(/^(?:add|remove) '(.*)'$/gm)].map((m) => m[1]!);
      const sensitive = paths.find((p) => this.policy.isSensitive(p) !== undefined);
      if (sensitive) {
        throw new ToolError(
          'SENSITIVE_FILE',
          `${sensitive} is a sensitive file (${this.policy.isSensitive(sensitive)}); agents do not stage it. Nothing was staged; name the other files, or ask the person to stage it.`,
          { path: sensitive },
        );
      }
      await this.git(repo, ['add', '-A', '--', ...pathspecs]);
    }
    if (target.hunks?.length) await this.applyHunks(repo, target.hunks, 'worktree', ['--cached']);
  }

  async unstage(target: GitTarget): Promise<void> {
    const repo = await this.repo();
    if (target.paths?.length) {
      const pathspecs = target.paths.map((p) => p || '.');
      const head = (await this.git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD'], { ok: [1] })).trim();
      if (head) await this.git(repo, ['restore', '--staged', '--', ...pathspecs]);
      else await this.git(repo, ['rm', '--cached', '-r', '-q', '--ignore-unmatch', '--', ...pathspecs]);
    }
    if (target.hunks?.length) await this.applyHunks(repo, target.hunks, 'index', ['--cached', '--reverse']);
  }

  async discardPlan(target: GitTarget): Promise<{ path: string; text: string; lost: FileDiff }[]> {
    const repo = await this.repo();
    const { files } = await this.rawDiff(repo, 'worktree');
    const byPath = new Map(files.map((f) => [f.path, f]));
    const plans = new Map<string, { path: string; text: string; lost: FileDiff }>();
    for (const input of target.paths ?? []) {
      const matching = files.filter((f) => input === '' || f.path === input || f.path.startsWith(`${input}/`));
      if (matching.length === 0) {
        throw new ToolError(
          'INVALID_ARGUMENT',
          `${input || 'The workspace'} has no unstaged changes to discard (untracked files are not deleted).`,
          {
            path: input,
          },
        );
      }
      for (const file of matching) {
        this.refuseSensitive(file.path);
        plans.set(file.path, {
          path: file.path,
          text: await this.git(repo, ['cat-file', '--filters', `:${(await repo.place).prefix}${file.path}`]),
          lost: file,
        });
      }
    }
    const hunks = this.findHunks(files, target.hunks ?? [], 'worktree');
    for (const [path, chosen] of hunks) {
      if (plans.has(path)) continue;
      this.refuseSensitive(path);
      const text = await readFile(join(this.root, path), 'utf8').catch(() => '');
      const reverted = revertHunks(text, chosen);
      if (reverted === undefined) throw staleHunk(chosen[0]!.id);
      plans.set(path, { path, text: reverted, lost: { ...byPath.get(path)!, hunks: chosen } });
    }
    return [...plans.values()];
  }

  async stagedPatch(): Promise<string> {
    const diff = await this.diff({ staged: true });
    return renderDiffText(diff.files, diff.truncated);
  }

  async commit(message: string): Promise<{ commit: string; branch: string | null; summary: string; files: number }> {
    const repo = await this.repo();
    const hooks = join((await repo.place).commonDir, 'hooks');
    await this.git(repo, ['commit', '-q', '-F', '-'], { input: message, hooks: true }).catch((err: unknown) => {
      if (err instanceof ToolError)
        throw new ToolError(err.code, `The commit failed (a hook in ${hooks} may have refused it): ${err.message}`, err.details);
      throw err;
    });
    const [head, branch, files] = await Promise.all([
      this.git(repo, ['log', '-1', '--format=%H%x1f%s']),
      this.git(repo, ['symbolic-ref', '--short', '-q', 'HEAD'], { ok: [1] }),
      this.git(repo, ['diff-tree', '--root', '--no-commit-id', '--name-only', '-r', '-z', 'HEAD']),
    ]);
    const [commit, summary] = head.trim().split('\x1f');
    return { commit: commit!, branch: branch.trim() || null, summary: summary ?? '', files: files.split('\0').filter(Boolean).length };
  }

  async log(options: { count: number; path?: string }): Promise<GitCommitInfo[]> {
    const repo = await this.repo();
    const args = ['log', `-n${options.count}`, '-z', '--no-show-signature', '--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s'];
    if (options.path !== undefined) args.push('--', options.path || '.');
    const out = await this.git(repo, args).catch((err: unknown) => {
      if (err instanceof ToolError && /does not have any commits/.test(err.message)) return '';
      throw err;
    });
    return out
      .split('\0')
      .filter(Boolean)
      .map((record) => {
        const [commit, author, email, date, summary] = record.replace(/^\n/, '').split('\x1f');
        return { commit: commit!, author: author!, email: email!, date: date!, summary: summary ?? '' };
      });
  }

  async originals(wanted: { path: string; ref: 'index' | 'HEAD' }[]): Promise<(string | undefined)[]> {
    if (wanted.length === 0) return [];
    const repo = await this.repo();
    const { prefix } = await repo.place;
    // git reads the names a line each: a name with a line break in it has no text here.
    const names = wanted.map(({ path, ref }) => (/[\n\r]/.test(path) ? undefined : `${ref === 'index' ? '' : 'HEAD'}:${prefix}${path}`));
    const asked = [...new Set(names.filter((n) => n !== undefined))];
    // One git for them all. Bytes as they are (latin1: a character each), so that the sizes git gives
    // count them; each text is UTF-8 again below. As git keeps it: a checkout's filters would give
    // other line endings, which the change markers and diffs do not compare.
    const out = await this.git(repo, ['cat-file', '--batch=%(objecttype) %(objectsize)'], { input: lines(asked), encoding: 'latin1' });
    const texts = new Map<string, string>();
    let at = 0;
    for (const name of asked) {
      const end = out.indexOf('\n', at);
      const found = /^(blob|tree|commit|tag) (\d+)$/.exec(out.slice(at, end));
      if (!found) {
        at = end + 1; // "<name> missing"
        continue;
      }
      const text = out.slice(end + 1, end + 1 + Number(found[2]));
      if (found[1] === 'blob') texts.set(name, Buffer.from(text, 'latin1').toString('utf8'));
      at = end + 1 + text.length + 1;
    }
    return names.map((name) => name && texts.get(name));
  }

  async stageText(path: string, text: string): Promise<void> {
    const repo = await this.repo();
    const { prefix } = await repo.place;
    const staged = await this.git(repo, ['ls-files', '-s', '-z', '--', `:(literal)${prefix}${path}`]);
    const mode = /^(\d{6}) /.exec(staged)?.[1] ?? '100644';
    // As it is, no filter in between: the text is what the index should hold.
    const blob = (await this.git(repo, ['hash-object', '-w', '--no-filters', '--stdin'], { input: text })).trim();
    await this.git(repo, ['update-index', '--add', '--cacheinfo', `${mode},${blob},${prefix}${path}`]);
  }

  async branches(): Promise<GitBranchInfo[]> {
    const repo = await this.repo();
    const format = ['%(refname:short)', '%(HEAD)', '%(objectname)', '%(subject)', '%(upstream:short)', '%(upstream:track,nobracket)'].join(
      '%1f',
    );
    const out = await this.git(repo, ['for-each-ref', 'refs/heads', `--format=${format}`]);
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, head, commit, summary, upstream, track] = line.split('\x1f');
        const ahead = /ahead (\d+)/.exec(track ?? '')?.[1];
        const behind = /behind (\d+)/.exec(track ?? '')?.[1];
        return {
          name: name!,
          current: head === '*',
          commit: commit!,
          summary: summary ?? '',
          ...(upstream ? { upstream, ahead: Number(ahead ?? 0), behind: Number(behind ?? 0) } : {}),
        };
      });
  }

  async worktrees(): Promise<GitWorktreeInfo[]> {
    const repo = await this.repo();
    const out = await this.git(repo, ['worktree', 'list', '--porcelain']);
    const { top } = await repo.place;
    const here = await realpath(top).catch(() => top);
    return out
      .split('\n\n')
      .filter((block) => block.startsWith('worktree '))
      .map((block) => {
        const fields = new Map(block.split('\n').map((l) => [l.split(' ')[0]!, l.slice(l.indexOf(' ') + 1)]));
        const path = fields.get('worktree')!;
        const branch = fields.get('branch')?.replace(/^refs\/heads\//, '') ?? null;
        return {
          path,
          branch,
          commit: fields.get('HEAD') ?? null,
          current: path === here || path === top,
          ...(fields.has('bare') ? { bare: true } : {}),
        };
      });
  }

  // --- the repository and the program

  private refuseSensitive(path: string): void {
    const pattern = this.policy.isSensitive(path);
    if (pattern) {
      throw new ToolError(
        'SENSITIVE_FILE',
        `${path} is a sensitive file (${pattern}); agents do not change it through git. Nothing was discarded.`,
        {
          path,
        },
      );
    }
  }

  /** The unstaged (worktree) or staged (index) diff of the whole workspace, every file's lines included. */
  private async rawDiff(repo: Repo, kind: 'worktree' | 'index'): Promise<{ files: FileDiff[] }> {
    const args = ['diff', '--no-ext-diff', '--no-textconv', '--relative', '-U3'];
    if (kind === 'index') args.push('--cached');
    return { files: parseDiff(await this.git(repo, [...args, '--', '.']), (path, text) => hunkId(kind, path, text)) };
  }

  private findHunks(files: FileDiff[], ids: string[], kind: 'worktree' | 'index'): Map<string, Hunk[]> {
    const byId = new Map(files.flatMap((f) => f.hunks.map((h) => [h.id, { file: f, hunk: h }] as const)));
    const chosen = new Map<string, Hunk[]>();
    for (const id of ids) {
      const found = byId.get(id);
      if (!found) throw staleHunk(id, kind);
      chosen.set(found.file.path, [...(chosen.get(found.file.path) ?? []), found.hunk]);
    }
    return chosen;
  }

  /** Apply chosen hunks of the worktree or index diff with `git apply` and these options. */
  private async applyHunks(repo: Repo, ids: string[], kind: 'worktree' | 'index', options: string[]): Promise<void> {
    const { files } = await this.rawDiff(repo, kind);
    const chosen = this.findHunks(files, ids, kind);
    for (const path of chosen.keys()) this.refuseSensitive(path);
    const patch = [...chosen]
      .map(([path, hunks]) => fileHeader(files.find((f) => f.path === path)!) + hunks.map(hunkText).join(''))
      .join('');
    await this.git(repo, ['apply', '--whitespace=nowarn', ...options, '-'], { input: patch }).catch((err: unknown) => {
      throw new ToolError('HUNK_NOT_FOUND', `The hunks no longer apply (${(err as Error).message}); ask openspace.git.diff again.`, {
        hunks: ids,
      });
    });
  }

  private async operation(place: Place): Promise<GitStatusInfo['operation']> {
    const markers = [
      ['MERGE_HEAD', 'merge'],
      ['rebase-merge', 'rebase'],
      ['rebase-apply', 'rebase'],
      ['CHERRY_PICK_HEAD', 'cherry-pick'],
      ['REVERT_HEAD', 'revert'],
      ['BISECT_LOG', 'bisect'],
    ] as const;
    const found = await Promise.all(
      markers.map(([file]) =>
        access(join(place.gitDir, file)).then(
          () => true,
          () => false,
        ),
      ),
    );
    return markers.find((_, i) => found[i])?.[1];
  }

  /**
   * The repository's configured filter drivers, switched off: .gitattributes, which an agent can
   * write, names them, and git runs them on status, add and checkout (an empty command runs nothing).
   * Where it is (asked each call: the person may `git init` or remove one at any time) is asked beside
   * the call's first command.
   */
  private async repo(): Promise<Repo> {
    const place = run(this.root, ['rev-parse', '--show-toplevel', '--show-prefix', '--absolute-git-dir', '--git-common-dir'], NEUTRAL).then(
      (out) => {
        const [top, prefix, gitDir, common] = out.split('\n');
        return { top: top!, prefix: prefix ?? '', gitDir: gitDir!, commonDir: isAbsolute(common!) ? common! : join(this.root, common!) };
      },
      (err: unknown) => {
        throw gitFailure(err);
      },
    );
    place.catch(() => undefined);
    const drivers = await run(this.root, ['config', '-z', '--get-regexp', '^filter\\.'], NEUTRAL, { ok: [1] }).catch((err: unknown) => {
      throw gitFailure(err);
    });
    const names = new Set(
      drivers
        .split('\0')
        .filter(Boolean)
        .map((entry) =>
          entry
            .split('\n')[0]!
            .replace(/^filter\./, '')
            .replace(/\.[^.]*$/, ''),
        ),
    );
    const noFilters = [...names].flatMap((name) =>
      ['clean', 'smudge', 'process'].flatMap((part) => ['-c', `filter.${name}.${part}=`]).concat('-c', `filter.${name}.required=false`),
    );
    return { noFilters, place };
  }

  /** git with every -c option above; it fails NOT_A_REPOSITORY where the workspace is in none, whatever git said. */
  private async git(repo: Repo, args: string[], options: RunOptions = {}): Promise<string> {
    const config = [...NEUTRAL, ...repo.noFilters];
    // A confirmed commit runs the hooks where git keeps them by default, never where config points.
    if (options.hooks) config.push('-c', `core.hooksPath=${join((await repo.place).commonDir, 'hooks')}`);
    const [out] = await Promise.all([
      run(this.root, args, config, options).catch(async (err: unknown) => {
        await repo.place;
        throw gitFailure(err);
      }),
      repo.place,
    ]);
    return out;
  }
}

/** A hunk's ID: its file and its lines (not its place, so an edit elsewhere in the file keeps it); parse.ts's hunkPath reads the file back. */
function hunkId(kind: string, path: string, text: string): string {
  return `${path}#${createHash('sha1').update(`${kind}\0${path}\0${text}`).digest('hex').slice(0, 8)}`;
}

function lines(items: string[]): string {
  return items.map((item) => `${item}\n`).join('');
}

function staleHunk(id: string, kind?: 'worktree' | 'index'): ToolError {
  const which = kind === 'index' ? 'staged (openspace.git.diff with staged:true)' : 'unstaged (openspace.git.diff)';
  return new ToolError(
    'HUNK_NOT_FOUND',
    `No ${which} hunk has the ID ${id} now: the file changed, or the hunk is staged or gone. Ask openspace.git.diff again.`,
    {
      hunk: id,
    },
  );
}

function fileHeader(file: FileDiff): string {
  const q = (p: string) => (JSON.stringify(p).slice(1, -1) === p && !/\s/.test(p) ? p : JSON.stringify(p));
  const oldPath = file.oldPath ?? file.path;
  const lines = [`diff --git ${q(`a/${oldPath}`)} ${q(`b/${file.path}`)}`];
  lines.push(`--- ${file.status === 'added' ? '/dev/null' : q(`a/${oldPath}`)}`);
  lines.push(`+++ ${file.status === 'deleted' ? '/dev/null' : q(`b/${file.path}`)}`);
  return lines.join('\n') + '\n';
}

function hunkText(hunk: Hunk): string {
  return `${hunk.header}\n${hunk.lines.join('\n')}\n`;
}
