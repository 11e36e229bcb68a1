/**
 * Git (issue 30): status, hunks with IDs, staging and unstaging one hunk of two, a commit the person
 * declines (no commit, no hook ran) and accepts (one commit, the hooks ran only then), discarding a
 * hunk with the person's yes (exact bytes after, a snapshot of what was there), log, branches,
 * worktrees, every error code, and a repository whose config tries to run code (fsmonitor, a filter,
 * hooksPath) that no call of an agent runs. The repository is made here, in the fixture's copy, by
 * the `git` program as a person would; the person answers at the agent's side on the simulated IDE
 * (MCP elicitation) and in Theia's dialog. The in-memory workspace is in no repository.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectAgent, type Agent, type Result } from '../client.js';
import { eventually, useTarget } from '../setup.js';
import { gitIn, makeRepository } from '../fixtures/git-repository.js';

const ctx = useTarget();
const NOTES = 'git/notes.txt';
const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

/** The person's answers to the next questions at the agent's side (simulated IDE). */
const answers: boolean[] = [];
let agent: Agent;
let dir: string;
/** Files the repository's configured programs would create if any ran. */
let canaries: string;

const git = (...args: string[]) => gitIn(dir)(...args);
const commits = () => Number(git('rev-list', '--count', 'HEAD').trim());
const disk = (path: string) => readFileSync(join(dir, path), 'utf8');

/** The call, with the person answering its confirmation: at the agent's side, or in Theia's dialog. */
async function answered(accept: boolean, button: string, call: () => Promise<Result>): Promise<Result> {
  const page = ctx.target.page;
  if (!page) {
    answers.push(accept);
    return call();
  }
  const pending = call();
  const dialog = page.locator('.dialogBlock', { hasText: 'OpenSpace' }).filter({ has: page.getByRole('button', { name: button }) });
  await dialog.waitFor({ state: 'visible', timeout: 20_000 });
  await dialog.getByRole('button', { name: accept ? button : 'Cancel' }).click();
  return pending;
}

it('a workspace in no repository: NOT_A_REPOSITORY', async () => {
  await ctx.agent.fails('openspace.git.status', {}, 'NOT_A_REPOSITORY');
});

describe('a repository', () => {
  beforeEach((t) => {
    if (!dir) t.skip('the in-memory workspace is in no repository (and has no disk for git to make one on)');
  });
  beforeAll(async () => {
    if (!ctx.target.workspaceDir) return;
    dir = ctx.target.workspaceDir;
    canaries = join(dir, '..', `${dir.split('/').pop()}-canaries`);
    mkdirSync(canaries, { recursive: true });
    mkdirSync(join(dir, 'git'), { recursive: true });
    writeFileSync(join(dir, NOTES), text(LINES));
    writeFileSync(join(dir, '.env'), 'TOKEN=one\n');
    makeRepository(dir);
    // A hook the person put where git keeps them: it runs for a commit they confirm, and then only.
    writeFileSync(join(dir, '.git/hooks/pre-commit'), `#!/bin/sh\necho ran >> '${canaries}/pre-commit'\n`);
    chmodSync(join(dir, '.git/hooks/pre-commit'), 0o755);
    agent = await connectAgent(ctx.target, 'git-agent', { ask: () => (answers.shift() ? { allow: true } : undefined) });
  });
  afterAll(() => agent?.close());

  it('status: the branch, the changed file with its lines, the untracked one', async () => {
    const lines = [...LINES];
    lines[1] = 'line 2, changed';
    lines[10] = 'line 11, changed';
    writeFileSync(join(dir, NOTES), text(lines));
    writeFileSync(join(dir, 'git/new.txt'), 'new\n');
    const status = await agent.ok('openspace.git.status');
    expect(status).toMatchObject({
      branch: 'main',
      head: git('rev-parse', 'HEAD').trim(),
      staged: [],
      unstaged: [{ path: NOTES, status: 'modified', added: 2, removed: 2 }],
      untracked: ['git/new.txt'],
      conflicted: [],
    });
    expect(status.operation).toBeUndefined();
  });

  it('diff: two hunks with IDs; staging one stages that one only, unstaging takes it back', async () => {
    const { files, truncated } = await agent.ok('openspace.git.diff', { path: NOTES });
    expect(truncated).toBe(false);
    expect(files).toHaveLength(1);
    const [first, second] = files[0].hunks;
    expect(files[0].hunks).toHaveLength(2);
    expect(first.lines).toContain('-line 2');
    expect(first.lines).toContain('+line 2, changed');
    expect(second.lines).toContain('+line 11, changed');
    expect(first.id).toMatch(/^git\/notes\.txt#[0-9a-f]{8}$/);

    const staged = await agent.ok('openspace.git.stage', { hunks: [first.id] });
    expect(staged.status).toEqual([{ path: NOTES, status: 'modified', added: 1, removed: 1 }]);
    expect(git('diff', '--cached', '--', NOTES)).toContain('+line 2, changed');
    expect(git('diff', '--cached', '--', NOTES)).not.toContain('line 11, changed');
    expect(git('diff', '--', NOTES)).toContain('+line 11, changed');

    // The hunk is staged now: its ID is stale for the unstaged diff.
    await agent.fails('openspace.git.stage', { hunks: [first.id] }, 'HUNK_NOT_FOUND');
    const stagedHunk = (await agent.ok('openspace.git.diff', { staged: true })).files[0].hunks[0];
    await agent.ok('openspace.git.unstage', { hunks: [stagedHunk.id] });
    expect(git('diff', '--cached')).toBe('');
    expect(disk(NOTES)).toContain('line 2, changed');
  });

  it('a sensitive file: its lines withheld from the diff, and not staged', async () => {
    writeFileSync(join(dir, '.env'), 'TOKEN=two\n');
    const { files } = await agent.ok('openspace.git.diff');
    const env = files.find((f: { path: string }) => f.path === '.env');
    expect(env).toMatchObject({ path: '.env', hunks: [] });
    expect(env.withheld).toBeTruthy();
    expect(JSON.stringify(files)).not.toContain('TOKEN');
    await agent.fails('openspace.git.stage', { paths: ['.env'] }, 'SENSITIVE_FILE');
    await agent.fails('openspace.git.stage', { paths: ['.'] }, 'SENSITIVE_FILE');
    expect(git('diff', '--cached')).toBe('');
    git('checkout', '--', '.env');
  });

  it('commit: nothing staged is NOTHING_TO_COMMIT; declined, no commit and no hook; accepted, one commit and the hook ran', async () => {
    await agent.fails('openspace.git.commit', { message: 'nothing' }, 'NOTHING_TO_COMMIT');
    await agent.ok('openspace.git.stage', { paths: ['git/new.txt'] });
    const before = commits();
    const declined = await answered(false, 'Commit', () => agent.call('openspace.git.commit', { message: 'Add new.txt' }));
    expect(declined).toMatchObject({ success: false, code: 'CONFIRMATION_DENIED' });
    expect(commits()).toBe(before);
    expect(existsSync(join(canaries, 'pre-commit'))).toBe(false);

    const accepted = await answered(true, 'Commit', () => agent.call('openspace.git.commit', { message: 'Add new.txt\n\nWith a body.' }));
    expect(accepted).toMatchObject({ success: true, branch: 'main', summary: 'Add new.txt', files: 1 });
    expect(commits()).toBe(before + 1);
    expect(accepted.commit).toBe(git('rev-parse', 'HEAD').trim());
    expect(git('log', '-1', '--format=%B').trim()).toBe('Add new.txt\n\nWith a body.');
    expect(readFileSync(join(canaries, 'pre-commit'), 'utf8')).toBe('ran\n');
    expect((await agent.ok('openspace.git.status')).untracked).not.toContain('git/new.txt');
  });

  it('discard: the person declines (the file stays), then confirms one hunk (exact bytes after, a snapshot kept)', async () => {
    const changed = disk(NOTES);
    const [first] = (await agent.ok('openspace.git.diff', { path: NOTES })).files[0].hunks;
    const declined = await answered(false, 'Discard', () => agent.call('openspace.git.discard', { hunks: [first.id] }));
    expect(declined).toMatchObject({ success: false, code: 'CONFIRMATION_DENIED' });
    expect(disk(NOTES)).toBe(changed);

    const discarded = await answered(true, 'Discard', () => agent.call('openspace.git.discard', { hunks: [first.id] }));
    expect(discarded).toMatchObject({ success: true, discarded: [first.id], files: [{ path: NOTES }] });
    const expected = [...LINES];
    expected[10] = 'line 11, changed';
    expect(disk(NOTES)).toBe(text(expected));
    const { snapshots } = await agent.ok('openspace.file.snapshots', { path: NOTES });
    const kept = await agent.ok('openspace.file.restore', { path: NOTES, version: snapshots[1].version });
    expect(kept.success).toBe(true);
    expect(disk(NOTES)).toBe(changed);
    await answered(true, 'Discard', () => agent.ok('openspace.git.discard', { paths: [NOTES] }));
    expect(disk(NOTES)).toBe(text(LINES));
    await agent.fails('openspace.git.discard', { paths: [NOTES] }, 'INVALID_ARGUMENT');
  });

  it('log, branches and worktrees', async () => {
    const log = await agent.ok('openspace.git.log', { count: 5 });
    expect(log.commits.map((c: { summary: string }) => c.summary)).toEqual(['Add new.txt', 'initial']);
    expect(log.commits[0]).toMatchObject({ author: 'Pat Person', email: 'pat@example.com' });
    expect(log.commits[0].date).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await agent.ok('openspace.git.log', { path: 'git/new.txt' })).commits).toHaveLength(1);

    git('branch', 'feature');
    const { branches } = await agent.ok('openspace.git.branches');
    expect(branches.map((b: { name: string; current: boolean }) => [b.name, b.current])).toEqual([
      ['feature', false],
      ['main', true],
    ]);
    const other = join(canaries, 'feature-checkout');
    git('worktree', 'add', '-q', other, 'feature');
    const { worktrees } = await agent.ok('openspace.git.worktrees');
    expect(worktrees).toHaveLength(2);
    expect(worktrees.find((w: { current: boolean }) => w.current)).toMatchObject({ branch: 'main' });
    expect(worktrees.find((w: { current: boolean }) => !w.current)).toMatchObject({
      branch: 'feature',
      commit: git('rev-parse', 'feature').trim(),
    });
    git('worktree', 'remove', '--force', other);
  });

  it("the person's own git actions (the source-control view runs the git tools as theirs) show in git.status and in events.query", async (t) => {
    const sim = ctx.target.sim;
    if (!sim) return t.skip('Theia: its source-control view, in the E2E (theia-app/e2e/git.spec.ts)');
    writeFileSync(join(dir, 'git/person.txt'), 'mine\n');
    const { cursor } = await agent.ok('openspace.events.query', { types: ['git.changed'], limit: 1 });
    await agent.ok('openspace.git.stage', { paths: [NOTES] }); // the agent's: not an event
    await agent.ok('openspace.git.unstage', { paths: [NOTES] });
    expect(await sim.registry.executeCommand('openspace.git.stage', { paths: ['git/person.txt'] })).toMatchObject({ success: true });
    expect((await agent.ok('openspace.git.status')).staged).toContainEqual(
      expect.objectContaining({ path: 'git/person.txt', status: 'added' }),
    );
    expect(await sim.registry.executeCommand('openspace.git.unstage', { paths: ['git/person.txt'] })).toMatchObject({ success: true });
    // A failed one is not a change.
    expect(await sim.registry.executeCommand('openspace.git.stage', { hunks: ['git/person.txt#00000000'] })).toMatchObject({
      success: false,
    });
    const events = (await agent.ok('openspace.events.query', { since: cursor, types: ['git.changed'] })).events as Result[];
    expect(events.map(({ tool, paths }) => ({ tool, paths }))).toEqual([
      { tool: 'openspace.git.stage', paths: ['git/person.txt'] },
      { tool: 'openspace.git.unstage', paths: ['git/person.txt'] },
    ]);
    rmSync(join(dir, 'git/person.txt'));
  });

  it("the instructions' live state says the branch and how many files changed, as they change", async () => {
    const liveState = async () =>
      (await (await fetch(`${ctx.target.origin}/openspace/instructions`, { headers: ctx.target.headers })).text())
        .split('\n')
        .find((line) => line.startsWith('- Git: '));
    const expected = async () => {
      const status = await agent.ok('openspace.git.status');
      const files = new Set(
        [...status.staged, ...status.unstaged].map((c: { path: string }) => c.path).concat(status.untracked, status.conflicted),
      );
      return `- Git: on branch ${status.branch}, ${files.size} ${files.size === 1 ? 'file' : 'files'} changed`;
    };
    await eventually(async () => expect(await liveState()).toMatch(new RegExp(`^${await expected()}`)), 5_000, 100);
    // One more file changed: the line follows within a few seconds.
    await agent.ok('openspace.file.write', { path: 'git/live-state.txt', content: 'new\n' });
    const next = await expected();
    await eventually(async () => expect(await liveState()).toMatch(new RegExp(`^${next}`)), 5_000, 100);
    rmSync(join(dir, 'git/live-state.txt'));
  });

  it('the whole flow on the simulated IDE, through elicitation: a change set accepted in part, staged, committed with the person’s yes', async (t) => {
    if (!ctx.target.sim) return t.skip('Theia: theia-app/e2e/review-flow.spec.ts, in its diffs and dialog');
    const [a, b, c] = ['git/flow-a.txt', 'git/flow-b.txt', 'git/flow-c.txt'];
    writeFileSync(join(dir, a), 'one\ntwo\nthree\nfour\nfive\nsix\n');
    writeFileSync(join(dir, b), 'alpha\n');
    writeFileSync(join(dir, c), 'gamma\n');
    git('add', a, b, c);
    git('commit', '-q', '-m', 'Files for the flow', '--no-verify');
    // The person: in the change set's form, no to a.txt's line 6 and to c.txt; yes to the commit.
    const person = await connectAgent(ctx.target, 'flow-agent', {
      ask: (_message, fields) =>
        'allow' in fields
          ? { allow: true }
          : Object.fromEntries(Object.entries(fields).map(([key, f]) => [key, !/flow-a\.txt, line 6|flow-c\.txt/.test(f.title ?? '')])),
    });
    try {
      const proposal = await person.ok('openspace.editor.propose_edit', {
        edits: [
          { path: a, newText: 'one\nTWO\nthree\nfour\nfive\nSIX\n' },
          { path: b, newText: 'ALPHA\n' },
          { path: c, newText: 'GAMMA\n' },
        ],
      });
      expect(proposal).toMatchObject({ status: 'partial' });
      expect((proposal.files as { status: string }[]).map((f) => f.status)).toEqual(['partial', 'accepted', 'rejected']);
      await person.ok('openspace.git.stage', { paths: [a, b] });
      const before = commits();
      await person.ok('openspace.git.commit', { message: 'Shout two and alpha' });
      expect(person.asked.at(-1)).toContain('Shout two and alpha');
      expect(commits()).toBe(before + 1);
      expect(git('show', `HEAD:${a}`)).toBe('one\nTWO\nthree\nfour\nfive\nsix\n');
      expect(git('show', `HEAD:${b}`)).toBe('ALPHA\n');
      expect(disk(c)).toBe('gamma\n');
      expect((await person.ok('openspace.git.status')).unstaged).toEqual([]);
    } finally {
      await person.close();
    }
  });

  it('a merge with conflicts: status says so, and commit answers MERGE_CONFLICT', async () => {
    git('checkout', '-q', 'feature');
    writeFileSync(join(dir, NOTES), text(['theirs', ...LINES.slice(1)]));
    git('commit', '-q', '-am', 'theirs', '--no-verify');
    git('checkout', '-q', 'main');
    writeFileSync(join(dir, NOTES), text(['ours', ...LINES.slice(1)]));
    git('commit', '-q', '-am', 'ours', '--no-verify');
    expect(() => git('merge', '-q', 'feature')).toThrow();
    const status = await agent.ok('openspace.git.status');
    expect(status).toMatchObject({ operation: 'merge', conflicted: [NOTES] });
    await agent.fails('openspace.git.commit', { message: 'merge' }, 'MERGE_CONFLICT');
    git('merge', '--abort');
  });

  it('git refusing (another git holds the index) is GIT_FAILED with what git said, and nothing changes', async () => {
    writeFileSync(join(dir, NOTES), text(['changed', ...LINES.slice(1)]));
    writeFileSync(join(dir, '.git/index.lock'), '');
    try {
      const failed = await agent.fails('openspace.git.stage', { paths: [NOTES] }, 'GIT_FAILED');
      expect(failed.error).toContain('index.lock');
    } finally {
      rmSync(join(dir, '.git/index.lock'));
    }
    expect(git('diff', '--cached')).toBe('');
    await agent.fails('openspace.git.diff', { ref: 'no-such-branch' }, 'INVALID_ARGUMENT');
  });

  it("what the repository's config would run (fsmonitor, a filter, hooksPath) runs for no agent call; only .git/hooks for a confirmed commit", async () => {
    const script = (name: string) => {
      const path = join(canaries, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\necho ran >> '${canaries}/${name}'\ncat\n`);
      chmodSync(path, 0o755);
      return path;
    };
    git('config', 'core.fsmonitor', script('fsmonitor'));
    git('config', 'filter.evil.clean', script('clean'));
    git('config', 'filter.evil.smudge', script('smudge'));
    git('config', 'diff.evil.textconv', script('textconv'));
    mkdirSync(join(canaries, 'hooks'), { recursive: true });
    writeFileSync(join(canaries, 'hooks/pre-commit'), `#!/bin/sh\necho ran >> '${canaries}/hooks-path'\n`);
    chmodSync(join(canaries, 'hooks/pre-commit'), 0o755);
    git('config', 'core.hooksPath', join(canaries, 'hooks'));
    // What an agent can write: the attributes that name the drivers.
    await agent.ok('openspace.file.write', { path: '.gitattributes', content: '* filter=evil diff=evil\n' });
    await agent.ok('openspace.file.write', { path: 'git/evil.txt', content: 'one\ntwo\n' });
    rmSync(join(canaries, 'pre-commit'), { force: true });

    await agent.ok('openspace.git.status');
    await agent.ok('openspace.git.diff');
    await agent.ok('openspace.git.stage', { paths: ['git/evil.txt', '.gitattributes', NOTES] });
    await agent.ok('openspace.git.diff', { staged: true });
    await agent.ok('openspace.git.log', { count: 3 });
    const ran = () => ['fsmonitor', 'clean', 'smudge', 'textconv', 'hooks-path', 'pre-commit'].filter((c) => existsSync(join(canaries, c)));
    expect(ran()).toEqual([]);
    await answered(true, 'Commit', () => agent.ok('openspace.git.commit', { message: 'With attributes' }));
    expect(ran()).toEqual(['pre-commit']);
  });
});
