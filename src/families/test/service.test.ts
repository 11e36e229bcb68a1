import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../conformance/setup.js';
import type { Runner, RunnerName } from './runner.js';
import { WorkspaceTests } from './service.js';

const root = mkdtempSync(join(tmpdir(), 'openspace-test-service-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A runner whose discovery is a Node process that says it started (a file in `dir`), waits
 * up to `waitMs` for the other runner's process to say so too, and reports one test named after
 * what it saw.
 */
function runner(dir: string, name: RunnerName, other: RunnerName, waitMs: number): Runner {
  const script = `
    const { existsSync, writeFileSync } = require('node:fs');
    writeFileSync(${JSON.stringify(join(dir, `${name}.pid`))}, String(process.pid));
    const deadline = Date.now() + ${waitMs};
    const done = (saw) => writeFileSync(process.env.OPENSPACE_TEST_EXCHANGE + '/report', saw);
    const look = () => existsSync(${JSON.stringify(join(dir, `${other}.pid`))}) ? done('with') : Date.now() > deadline ? done('alone') : setTimeout(look, 20);
    look();`;
  return {
    name,
    detect: async () => true,
    missing: async () => undefined,
    owns: () => false,
    files: () => ({}),
    discover: () => ({ argv: [process.execPath, '-e', script], env: {} }),
    run: () => ({ argv: [process.execPath, '-e', ''], env: {} }),
    read: async ({ exchange }) => {
      const saw = readFileSync(join(exchange.host, 'report'), 'utf8');
      return {
        tests: [{ id: `${name}::${saw}`, name: `${name} ${saw} the other`, suite: [], path: '.', runner: name, status: 'passed' }],
        errors: [],
      };
    },
  };
}

/** Tests of a workspace that uses Jest and pytest, whose discoveries wait for `other`'s to start (in `dir`). */
const jestAndPytest = (dir: string, others: [RunnerName, RunnerName], waitMs: number) =>
  new WorkspaceTests({
    root,
    sandbox: () => undefined,
    runners: [runner(dir, 'jest', others[0], waitMs), runner(dir, 'pytest', others[1], waitMs)],
  });

describe('discovery across the runners a workspace uses', () => {
  it('lists with every runner at once, so it takes as long as the slowest, not their sum', async () => {
    const dir = mkdtempSync(join(root, 'at-once-'));
    const tests = jestAndPytest(dir, ['pytest', 'jest'], 10_000);
    const found = await tests.discover([]);
    expect(found.tests.map((t) => t.name)).toEqual(['jest with the other', 'pytest with the other']);
    expect(found.runners).toEqual(['jest', 'pytest']);
  });

  it('a cancel stops every runner listing', async () => {
    const dir = mkdtempSync(join(root, 'cancel-'));
    // Each waits for a runner that never starts.
    const tests = jestAndPytest(dir, ['vitest', 'vitest'], 60_000);
    const listing = tests.discover([]);
    await eventually(() => expect(existsSync(join(dir, 'jest.pid')) && existsSync(join(dir, 'pytest.pid'))).toBe(true), 10_000);
    const pids = ['jest', 'pytest'].map((name) => Number(readFileSync(join(dir, `${name}.pid`), 'utf8')));
    expect(tests.cancel()).toBe(true);
    await expect(listing).rejects.toThrow('The discovery was cancelled.');
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
