/**
 * Reviewing changes already made (an agent's own edits in the chat), hunk by hunk, on the
 * simulated IDE: a kept hunk stays, a rejected one is put back as it was, a file kept whole is not
 * written again, and a file the agent created is left to the caller when all of it is rejected.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTarget, type Target } from '../../../conformance/target.js';
import { reviewApplied } from './review.js';

let target: Target;
beforeAll(async () => {
  target = await startTarget({ workspace: { kind: 'memory' } });
  target.sim!.review.decideWith('wait');
});
afterAll(() => target?.close());

const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
const AFTER = 'ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n';

it('keeps the accepted hunks and puts the rejected ones back; a file kept whole is not written again', async () => {
  const { port, review } = target.sim!;
  await port.workspace.writeText('applied/a.txt', AFTER);
  await port.workspace.writeText('applied/b.txt', 'b after\n');
  const kept = (await port.workspace.readText('applied/b.txt')).version;
  const shown = await reviewApplied(port, 'Changes by Claude', [
    { path: 'applied/a.txt', before: BEFORE },
    { path: 'applied/b.txt', before: 'b before\n' },
    { path: 'applied/same.txt', before: null },
  ]);
  expect(shown!.files.map((f) => [f.path, f.hunks.length])).toEqual([
    ['applied/a.txt', 2],
    ['applied/b.txt', 1],
  ]);
  review.personDecides(shown!.proposalId, true, { path: 'applied/a.txt', hunk: 1 });
  review.personDecides(shown!.proposalId, false, { path: 'applied/a.txt', hunk: 2 });
  review.personDecides(shown!.proposalId, true, { path: 'applied/b.txt' });
  const answer = await shown!.done;
  expect(answer.files.map((f) => [f.path, f.status])).toEqual([
    ['applied/a.txt', 'partial'],
    ['applied/b.txt', 'accepted'],
  ]);
  expect((await port.workspace.readText('applied/a.txt')).text).toBe('ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n');
  expect((await port.workspace.readText('applied/b.txt')).version).toBe(kept);
});

it('a created file rejected whole is not written (the caller removes it); one the person changed since is not overwritten', async () => {
  const { port, review } = target.sim!;
  await port.workspace.writeText('applied/new.txt', 'made by the agent\n');
  await port.workspace.writeText('applied/moved.txt', AFTER);
  const shown = await reviewApplied(port, 'Changes', [
    { path: 'applied/new.txt', before: null },
    { path: 'applied/moved.txt', before: BEFORE },
  ]);
  await port.workspace.writeText('applied/moved.txt', `${AFTER}eight\n`);
  review.personDecides(shown!.proposalId, false, {});
  await expect(shown!.done).rejects.toMatchObject({ code: 'CONFLICT' });
  expect((await port.workspace.readText('applied/new.txt')).text).toBe('made by the agent\n');
  expect((await port.workspace.readText('applied/moved.txt')).text).toBe(`${AFTER}eight\n`);
});

it('nothing to review when every file is as it was', async () => {
  const { port } = target.sim!;
  await port.workspace.writeText('applied/back.txt', BEFORE);
  expect(await reviewApplied(port, 'Changes', [{ path: 'applied/back.txt', before: BEFORE }])).toBeUndefined();
});
