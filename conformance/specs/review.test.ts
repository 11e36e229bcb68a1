/**
 * Edits the person reviews (issue 14): editor.replace_range changes the live buffer (unsaved,
 * undoable) and editor.propose_edit shows a diff and answers the person's decision. The person
 * decides through the simulated IDE's person API, or by clicking Accept / Reject in Theia's diff.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAgent } from '../client.js';
import { personDecides, personUndoes } from '../person.js';
import { eventually, useTarget } from '../setup.js';

const ctx = useTarget();
const FILE = 'review/lines.txt';
const ORIGINAL = 'one\ntwo\nthree\nfour\n';

beforeAll(() => {
  // The simulated IDE's default accepts at once when the client cannot ask; here its person decides.
  ctx.target.sim?.review.decideWith('wait');
});

async function disk(path: string): Promise<{ content: string; version: string }> {
  const { content, version } = await ctx.agent.ok('openspace.file.read', { path });
  return { content, version };
}

describe('editor.replace_range', () => {
  it('changes the buffer the person sees, not the file, and Ctrl+Z takes it back', async (t) => {
    await ctx.agent.ok('openspace.file.write', { path: FILE, content: ORIGINAL });
    const before = await disk(FILE);
    const answer = await ctx.agent.ok('openspace.editor.replace_range', {
      path: FILE,
      startLine: 2,
      endLine: 3,
      newText: 'TWO\nTHREE\nTHREE AND A HALF',
      baseVersion: before.version,
    });
    expect(answer).toMatchObject({ path: FILE, startLine: 2, endLine: 4, lineCount: 5, isDirty: true });
    const edited = 'one\nTWO\nTHREE\nTHREE AND A HALF\nfour\n';
    expect((await ctx.agent.ok('openspace.editor.read_file', { path: FILE })).content).toBe(edited);
    expect(await disk(FILE)).toEqual(before);
    // The changed lines are highlighted for a moment.
    expect((await ctx.agent.ok('openspace.pane.list', {})).success).toBe(true);

    await personUndoes(ctx, t, FILE);
    await eventually(async () => expect((await ctx.agent.ok('openspace.editor.read_file', { path: FILE })).content).toBe(ORIGINAL));
  });

  it('inserts, deletes and appends lines; the answer names the lines newText occupies', async () => {
    const path = 'review/edit-kinds.txt';
    await ctx.agent.ok('openspace.file.write', { path, content: 'a\nb\nc' });
    const read = async () => (await ctx.agent.ok('openspace.editor.read_file', { path })).content;
    expect(await ctx.agent.ok('openspace.editor.replace_range', { path, startLine: 2, endLine: 1, newText: 'inserted' })).toMatchObject({
      startLine: 2,
      endLine: 2,
    });
    expect(await read()).toBe('a\ninserted\nb\nc');
    expect(await ctx.agent.ok('openspace.editor.replace_range', { path, startLine: 3, endLine: 3, newText: '' })).toMatchObject({
      startLine: 3,
      endLine: 2,
      lineCount: 3,
    });
    expect(await read()).toBe('a\ninserted\nc');
    await ctx.agent.ok('openspace.editor.replace_range', { path, startLine: 4, endLine: 3, newText: 'd' });
    expect(await read()).toBe('a\ninserted\nc\nd');
    await ctx.agent.ok('openspace.editor.replace_range', { path, startLine: 3, endLine: 4, newText: '' });
    expect(await read()).toBe('a\ninserted');
  });

  it('refuses a stale baseVersion and lines past the end, changing nothing', async () => {
    const path = 'review/guarded.txt';
    await ctx.agent.ok('openspace.file.write', { path, content: 'x\ny\n' });
    const { version } = await disk(path);
    await ctx.agent.ok('openspace.editor.replace_range', { path, startLine: 1, endLine: 1, newText: 'X', baseVersion: version });
    const stale = await ctx.agent.fails(
      'openspace.editor.replace_range',
      { path, startLine: 2, endLine: 2, newText: 'Y', baseVersion: version },
      'CONFLICT',
    );
    expect(stale.currentVersion).toMatch(/^[0-9a-f]{16}$/);
    expect(stale.currentVersion).not.toBe(version);
    await ctx.agent.fails('openspace.editor.replace_range', { path, startLine: 2, endLine: 9, newText: 'Y' }, 'RANGE_INVALID');
    await ctx.agent.fails(
      'openspace.editor.replace_range',
      { path: 'review/missing.txt', startLine: 1, endLine: 1, newText: 'Y' },
      'FILE_NOT_FOUND',
    );
    expect((await ctx.agent.ok('openspace.editor.read_file', { path })).content).toBe('X\ny\n');
  });
});

describe('editor.propose_edit', () => {
  it('Accept writes the proposed text and answers the new version', async (t) => {
    const path = 'review/accept.txt';
    await ctx.agent.ok('openspace.file.write', { path, content: ORIGINAL });
    const asked = ctx.agent.call('openspace.editor.propose_edit', {
      path,
      newText: 'one\n2\nthree\nfour\nfive\n',
      title: 'Number two, add five',
      proposalId: 'accept-1',
      timeoutMs: 20_000,
    });
    await personDecides(ctx, t, 'accept-1', true);
    const answer = await asked;
    expect(answer).toMatchObject({ success: true, proposalId: 'accept-1', path, status: 'accepted', added: 2, removed: 1 });
    expect(await disk(path)).toEqual({ content: 'one\n2\nthree\nfour\nfive\n', version: answer.version });
    // The diff closed with the decision.
    await eventually(async () => expect(JSON.stringify(await ctx.agent.ok('openspace.pane.list', {}))).not.toContain('accept-1'));
  });

  it('Reject leaves the file as it was', async (t) => {
    const path = 'review/reject.txt';
    await ctx.agent.ok('openspace.file.write', { path, content: ORIGINAL });
    const before = await disk(path);
    const asked = ctx.agent.call('openspace.editor.propose_edit', {
      path,
      operations: [{ type: 'replace_text', oldText: 'three', newText: '3' }],
      proposalId: 'reject-1',
    });
    await personDecides(ctx, t, 'reject-1', false);
    expect(await asked).toMatchObject({ success: true, status: 'rejected', added: 1, removed: 1 });
    expect(await disk(path)).toEqual(before);
  });

  it('answers pending at the timeout, keeps the diff open, and a later call learns the decision', async (t) => {
    const path = 'review/pending.txt';
    await ctx.agent.ok('openspace.file.write', { path, content: ORIGINAL });
    const started = Date.now();
    const first = await ctx.agent.ok('openspace.editor.propose_edit', { path, newText: 'later\n', timeoutMs: 300 });
    expect(first).toMatchObject({ status: 'pending', path });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(first.proposalId).toMatch(/^proposal-\d+$/);
    expect(await disk(path)).toMatchObject({ content: ORIGINAL });
    const again = ctx.agent.call('openspace.editor.propose_edit', { proposalId: first.proposalId, timeoutMs: 20_000 });
    await personDecides(ctx, t, first.proposalId, true);
    expect(await again).toMatchObject({ success: true, status: 'accepted', proposalId: first.proposalId });
    expect(await disk(path)).toMatchObject({ content: 'later\n' });
    // Asked once more, the decision stands.
    expect(await ctx.agent.ok('openspace.editor.propose_edit', { proposalId: first.proposalId, timeoutMs: 0 })).toMatchObject({
      status: 'accepted',
    });
  });

  it('several proposals each get their own diff; Accept of a file that moved on answers CONFLICT and writes nothing', async (t) => {
    const a = 'review/several-a.txt';
    const b = 'review/several-b.txt';
    await ctx.agent.ok('openspace.file.write', { path: a, content: 'a\n' });
    await ctx.agent.ok('openspace.file.write', { path: b, content: 'b\n' });
    await ctx.agent.ok('openspace.editor.propose_edit', { path: a, newText: 'A\n', proposalId: 'several-a', timeoutMs: 0 });
    await ctx.agent.ok('openspace.editor.propose_edit', { path: b, newText: 'B\n', proposalId: 'several-b', timeoutMs: 0 });
    const tabs = JSON.stringify(await ctx.agent.ok('openspace.pane.list', {}));
    expect(tabs).toContain('several-a');
    expect(tabs).toContain('several-b');

    // Someone changes b while its proposal waits.
    await ctx.agent.ok('openspace.file.write', { path: b, content: 'b changed\n' });
    await personDecides(ctx, t, 'several-b', true);
    await personDecides(ctx, t, 'several-a', true);
    await ctx.agent.fails('openspace.editor.propose_edit', { proposalId: 'several-b', timeoutMs: 0 }, 'CONFLICT');
    expect(await disk(b)).toMatchObject({ content: 'b changed\n' });
    expect(await ctx.agent.ok('openspace.editor.propose_edit', { proposalId: 'several-a', timeoutMs: 0 })).toMatchObject({
      status: 'accepted',
    });
    expect(await disk(a)).toMatchObject({ content: 'A\n' });
  });

  it('a new file can be proposed; bad requests answer structured errors', async (t) => {
    const path = 'review/new-file.txt';
    const asked = ctx.agent.call('openspace.editor.propose_edit', { path, newText: 'fresh\n', proposalId: 'new-1' });
    await personDecides(ctx, t, 'new-1', true);
    expect(await asked).toMatchObject({ success: true, status: 'accepted', added: 1, removed: 0 });
    expect(await disk(path)).toMatchObject({ content: 'fresh\n' });
    await ctx.agent.fails('openspace.editor.propose_edit', { proposalId: 'no-such-proposal' }, 'PROPOSAL_NOT_FOUND');
    await ctx.agent.fails('openspace.editor.propose_edit', { path, newText: 'x', operations: [] }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.editor.propose_edit', { path }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.editor.propose_edit', { path: '../outside.txt', newText: 'x' }, 'PATH_OUTSIDE_WORKSPACE');
  });
});

describe('change sets, reviewed hunk by hunk', () => {
  const A = 'review/set/a.txt';
  const B = 'review/set/b.txt';
  const C = 'review/set/c.txt';

  it('three files: the person accepts a hunk, rejects one, accepts a file and a new file; each holds exactly what was accepted', async (t) => {
    await ctx.agent.ok('openspace.file.write', { path: A, content: 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix' });
    await ctx.agent.ok('openspace.file.write', { path: B, content: 'alpha\nbeta\n' });
    const asked = ctx.agent.call('openspace.editor.propose_edit', {
      proposalId: 'set-1',
      title: 'Shout two and six, add gamma, create c',
      edits: [
        { path: A, newText: 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX' },
        { path: B, operations: [{ type: 'append', content: 'gamma' }] },
        { path: C, newText: 'created\n' },
      ],
      timeoutMs: 30_000,
    });
    await personDecides(ctx, t, 'set-1', true, { path: A, hunk: 1 });
    await personDecides(ctx, t, 'set-1', false, { path: A, hunk: 2 });
    await personDecides(ctx, t, 'set-1', true, { path: B });
    await personDecides(ctx, t, 'set-1', true, { path: C });
    const answer = await asked;
    expect(answer).toMatchObject({ success: true, proposalId: 'set-1', status: 'partial', added: 4, removed: 2 });
    expect(answer.path).toBeUndefined();
    const files = answer.files as { path: string; status: string; version?: string; hunks: unknown[] }[];
    expect(files.map(({ path, status, hunks }) => ({ path, status, hunks }))).toEqual([
      {
        path: A,
        status: 'partial',
        hunks: [
          { hunk: 1, oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, decision: 'accepted' },
          { hunk: 2, oldStart: 6, oldLines: 1, newStart: 6, newLines: 1, decision: 'rejected' },
        ],
      },
      { path: B, status: 'accepted', hunks: [{ hunk: 1, oldStart: 3, oldLines: 0, newStart: 3, newLines: 1, decision: 'accepted' }] },
      { path: C, status: 'accepted', hunks: [{ hunk: 1, oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, decision: 'accepted' }] },
    ]);
    // Byte for byte: the line ends and the missing last newline of a stay as they were.
    expect(await disk(A)).toEqual({ content: 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nsix', version: files[0]!.version });
    expect(await disk(B)).toEqual({ content: 'alpha\nbeta\ngamma\n', version: files[1]!.version });
    expect(await disk(C)).toEqual({ content: 'created\n', version: files[2]!.version });
    await eventually(async () => expect(JSON.stringify(await ctx.agent.ok('openspace.pane.list', {}))).not.toContain('set-1'));
  });

  it('a file that moved on is not written (CONFLICT, naming what was); every hunk rejected leaves a file as it was', async (t) => {
    await ctx.agent.ok('openspace.file.write', { path: A, content: 'a1\na2\n' });
    await ctx.agent.ok('openspace.file.write', { path: B, content: 'b1\nb2\n' });
    await ctx.agent.ok('openspace.file.write', { path: C, content: 'c1\nc2\n' });
    const before = await disk(C);
    await ctx.agent.ok('openspace.editor.propose_edit', {
      proposalId: 'set-2',
      edits: [
        { path: A, newText: 'A1\na2\n' },
        { path: B, newText: 'b1\nB2\n' },
        { path: C, newText: 'C1\nc2\nC3\n' },
      ],
      timeoutMs: 0,
    });
    await ctx.agent.ok('openspace.file.write', { path: B, content: 'b1 changed\nb2\n' });
    await personDecides(ctx, t, 'set-2', true, { path: A });
    await personDecides(ctx, t, 'set-2', true, { path: B });
    await personDecides(ctx, t, 'set-2', false, { path: C, hunk: 2 });
    await personDecides(ctx, t, 'set-2', false, { path: C, hunk: 1 });
    const failed = await ctx.agent.fails('openspace.editor.propose_edit', { proposalId: 'set-2', timeoutMs: 0 }, 'CONFLICT');
    expect(failed.error).toContain(B);
    expect(failed.error).toContain(`Written as decided: ${A}`);
    expect((failed.files as { path: string; status: string }[]).map((f) => `${f.path} ${f.status}`)).toEqual([
      `${A} accepted`,
      `${B} accepted`,
      `${C} rejected`,
    ]);
    expect((await disk(A)).content).toBe('A1\na2\n');
    expect((await disk(B)).content).toBe('b1 changed\nb2\n');
    expect(await disk(C)).toEqual(before);
  });

  it('bad change sets answer structured errors and show nothing', async () => {
    await ctx.agent.ok('openspace.file.write', { path: A, content: 'same\n' });
    const fails = (args: Record<string, unknown>, code: string) => ctx.agent.fails('openspace.editor.propose_edit', args, code);
    await fails({ path: A, edits: [{ path: A, newText: 'x' }] }, 'INVALID_ARGUMENT');
    await fails(
      {
        edits: [
          { path: A, newText: 'x\n' },
          { path: `./${A}`, newText: 'y\n' },
        ],
      },
      'INVALID_ARGUMENT',
    );
    expect((await fails({ edits: [{ path: A, newText: 'same\n' }] }, 'INVALID_ARGUMENT')).error).toContain('changes nothing');
    await fails({ edits: [{ path: A }] }, 'INVALID_ARGUMENT');
    await fails(
      {
        edits: [
          { path: A, newText: 'x' },
          { path: '../outside.txt', newText: 'x' },
        ],
      },
      'PATH_OUTSIDE_WORKSPACE',
    );
    expect(JSON.stringify(await ctx.agent.ok('openspace.pane.list', {}))).not.toContain(`proposal:`);
    expect((await disk(A)).content).toBe('same\n');
  });
});

describe('search.replace: a change set the person reviews', () => {
  it('replaces across files, skipping sensitive and excluded ones; nothing is written until the person decides, then exactly what they accepted', async (t) => {
    await ctx.agent.ok('openspace.file.write', { path: 'replace/one.ts', content: 'const oldName = 1;\n\nuse(oldName);\n' });
    await ctx.agent.ok('openspace.file.write', { path: 'replace/deeper/two.ts', content: 'oldName();\n' });
    await ctx.agent.ok('openspace.file.write', { path: 'replace/notes.md', content: 'oldName\n' });
    const asked = ctx.agent.call('openspace.search.replace', {
      query: 'oldName',
      replacement: 'newName',
      caseSensitive: true,
      path: 'replace',
      excludePattern: '**/*.md',
      proposalId: 'rename-1',
      timeoutMs: 30_000,
    });
    await personDecides(ctx, t, 'rename-1', true, { path: 'replace/one.ts', hunk: 1 });
    // Decided in part, nothing is written yet (read by another session: this one waits for its call).
    const observer = await connectAgent(ctx.target, 'observer');
    try {
      expect((await observer.ok('openspace.file.read', { path: 'replace/one.ts' })).content).toBe('const oldName = 1;\n\nuse(oldName);\n');
    } finally {
      await observer.close();
    }
    await personDecides(ctx, t, 'rename-1', false, { path: 'replace/one.ts', hunk: 2 });
    await personDecides(ctx, t, 'rename-1', true, { path: 'replace/deeper/two.ts' });
    const answer = await asked;
    expect(answer).toMatchObject({ success: true, proposalId: 'rename-1', status: 'partial', matches: 3 });
    expect((answer.files as { path: string; status: string }[]).map((f) => `${f.path} ${f.status}`)).toEqual([
      'replace/deeper/two.ts accepted',
      'replace/one.ts partial',
    ]);
    expect((await disk('replace/one.ts')).content).toBe('const newName = 1;\n\nuse(oldName);\n');
    expect((await disk('replace/deeper/two.ts')).content).toBe('newName();\n');
    expect((await disk('replace/notes.md')).content).toBe('oldName\n');
  });

  it("a regular expression's groups in the replacement; no match and a bad expression are errors that propose nothing", async (t) => {
    await ctx.agent.ok('openspace.file.write', { path: 'replace-re/calls.ts', content: 'use(a);\nuse(bb);\nkeep(c);\n' });
    const asked = ctx.agent.call('openspace.search.replace', {
      query: 'use\\((\\w+)\\)',
      replacement: 'call($1, true)',
      isRegex: true,
      path: 'replace-re',
      proposalId: 'rename-2',
      timeoutMs: 30_000,
    });
    await personDecides(ctx, t, 'rename-2', true, { path: 'replace-re/calls.ts' });
    expect(await asked).toMatchObject({ success: true, status: 'accepted', matches: 2 });
    expect((await disk('replace-re/calls.ts')).content).toBe('call(a, true);\ncall(bb, true);\nkeep(c);\n');
    await ctx.agent.fails('openspace.search.replace', { query: 'nothing-like-this-anywhere', replacement: 'x' }, 'NO_MATCHES');
    // The fixture's .env holds it: a sensitive file is never searched, so never changed.
    await ctx.agent.fails('openspace.search.replace', { query: 'fixture-value-not-a-real-secret', replacement: 'x' }, 'NO_MATCHES');
    await ctx.agent.fails('openspace.search.replace', { query: 'use(', replacement: 'x', isRegex: true }, 'INVALID_ARGUMENT');
    expect(JSON.stringify(await ctx.agent.ok('openspace.pane.list', {}))).not.toContain('proposal:');
  });
});

describe("propose_edit on the simulated IDE: the person at the agent's side decides (MCP elicitation)", () => {
  /** What the person answers: a yes or no per field, no answer (declined), or never. */
  let answer: ((fields: Record<string, { title?: string }>) => Record<string, unknown>) | undefined | 'never';
  let agent: Awaited<ReturnType<typeof connectAgent>>;
  let fields: Record<string, { title?: string }> = {};
  const yes = (fields: Record<string, unknown>) => Object.fromEntries(Object.keys(fields).map((k) => [k, true]));
  beforeAll(async () => {
    if (!ctx.target.sim) return;
    agent = await connectAgent(ctx.target, 'eliciting-agent', {
      ask: (_message, asked) => {
        fields = asked;
        return answer === 'never' ? new Promise<undefined>(() => {}) : answer?.(asked);
      },
    });
  });
  afterAll(() => agent?.close());

  it('accepted, declined, or unanswered until the timeout', async (t) => {
    if (!ctx.target.sim) return t.skip('Theia asks its own person, in the diff view');
    const path = 'review/elicited.txt';
    await agent.ok('openspace.file.write', { path, content: 'old\n' });
    answer = yes;
    expect(await agent.ok('openspace.editor.propose_edit', { path, newText: 'new\n', title: 'Renew' })).toMatchObject({
      status: 'accepted',
    });
    expect(agent.asked.at(-1)).toContain('Renew');
    expect(agent.asked.at(-1)).toContain(path);
    answer = undefined;
    expect(await agent.ok('openspace.editor.propose_edit', { path, newText: 'newer\n' })).toMatchObject({ status: 'rejected' });
    answer = 'never';
    const pending = await agent.ok('openspace.editor.propose_edit', { path, newText: 'newest\n', timeoutMs: 300 });
    expect(pending).toMatchObject({ status: 'pending' });
    expect((await agent.ok('openspace.file.read', { path })).content).toBe('new\n');
    ctx.target.sim.review.personDecides(pending.proposalId, false);
    expect(await agent.ok('openspace.editor.propose_edit', { proposalId: pending.proposalId, timeoutMs: 0 })).toMatchObject({
      status: 'rejected',
    });
  });

  it('one form with a yes or no for every hunk of a change set; the files hold the hunks answered yes', async (t) => {
    if (!ctx.target.sim) return t.skip('Theia asks its own person, in the diff view');
    await agent.ok('openspace.file.write', { path: 'review/asked/a.txt', content: '1\n2\n3\n4\n5\n' });
    await agent.ok('openspace.file.write', { path: 'review/asked/b.txt', content: 'b\n' });
    // Every hunk but the one of line 5.
    answer = (asked) => Object.fromEntries(Object.entries(asked).map(([k, f]) => [k, !f.title?.includes('line 5')]));
    const result = await agent.ok('openspace.editor.propose_edit', {
      edits: [
        { path: 'review/asked/a.txt', newText: 'one\n2\n3\n4\nfive\n' },
        { path: 'review/asked/b.txt', newText: 'B\n' },
      ],
    });
    expect(Object.values(fields).map((f) => f.title)).toEqual([
      'review/asked/a.txt, line 1: +1 −1',
      'review/asked/a.txt, line 5: +1 −1',
      'review/asked/b.txt, line 1: +1 −1',
    ]);
    expect(result).toMatchObject({ status: 'partial' });
    expect((await agent.ok('openspace.file.read', { path: 'review/asked/a.txt' })).content).toBe('one\n2\n3\n4\n5\n');
    expect((await agent.ok('openspace.file.read', { path: 'review/asked/b.txt' })).content).toBe('B\n');
  });

  it('without elicitation, the --proposals setting decides', async (t) => {
    const sim = ctx.target.sim;
    if (!sim) return t.skip('a setting of the simulated IDE');
    const path = 'review/setting.txt';
    await ctx.agent.ok('openspace.file.write', { path, content: 'old\n' });
    try {
      sim.review.decideWith('reject');
      expect(await ctx.agent.ok('openspace.editor.propose_edit', { path, newText: 'no\n' })).toMatchObject({ status: 'rejected' });
      sim.review.decideWith('accept');
      expect(await ctx.agent.ok('openspace.editor.propose_edit', { path, newText: 'yes\n' })).toMatchObject({ status: 'accepted' });
      expect((await ctx.agent.ok('openspace.file.read', { path })).content).toBe('yes\n');
    } finally {
      sim.review.decideWith('wait');
    }
  });
});
