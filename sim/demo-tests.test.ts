/**
 * The demo workspace's tests as a new user meets them (`npm start`, an MCP client over HTTP): the
 * agent lists them, runs the failing one, reads where and why it failed, fixes the code with
 * file.patch and runs it again, green. The in-memory workspace runs its tests in its copy on disk.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectAgent, type Agent } from '../conformance/client.js';
import { startTarget, type Target } from '../conformance/target.js';

let target: Target;
let agent: Agent;
beforeAll(async () => {
  target = await startTarget({ workspace: { kind: 'memory' } });
  agent = await connectAgent(target);
});
afterAll(async () => {
  await agent?.close();
  await target?.close();
});

it('discover, run the failing test, fix it with file.patch, run it green', { timeout: 90_000 }, async () => {
  const found = await agent.ok('openspace.test.discover');
  expect(found.runners).toEqual(['vitest']);
  expect(found.tests.map((t: { id: string }) => t.id)).toEqual([
    'test/tasks.test.ts::tasks::creates tasks with readable ids',
    "test/tasks.test.ts::tasks::lists only the owner's tasks",
    'test/tasks.test.ts::tasks::completes a task',
    'test/utils.test.ts::slugify::joins words with dashes',
    'test/utils.test.ts::slugify::keeps accented letters readable',
    'test/utils.test.ts::parseLimit::clamps to 1..100 and falls back on nonsense',
  ]);

  const all = await agent.ok('openspace.test.run');
  expect(all).toMatchObject({ status: 'failed', counts: { passed: 5, failed: 1, skipped: 0, todo: 0 } });
  const [failing] = all.tests;
  expect(failing).toMatchObject({
    name: 'keeps accented letters readable',
    status: 'failed',
    failure: { expected: 'cafe-creme', actual: 'caf-cr-me', path: 'test/utils.test.ts', line: 10 },
  });

  const { version } = await agent.ok('openspace.file.read', { path: 'src/utils.ts' });
  await agent.ok('openspace.file.patch', {
    path: 'src/utils.ts',
    baseVersion: version,
    operations: [
      {
        type: 'replace_text',
        oldText: '    .toLowerCase()\n',
        newText: "    .normalize('NFD')\n    .replace(/[\\u0300-\\u036f]/g, '')\n    .toLowerCase()\n",
      },
    ],
  });
  const again = await agent.ok('openspace.test.run', { names: [failing.id] });
  expect(again).toMatchObject({ status: 'passed', tests: [{ name: 'keeps accented letters readable', status: 'passed' }] });
});
