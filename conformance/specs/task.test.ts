/**
 * Tasks (issue 31): the package.json scripts listed; a script run in its own terminal, answering
 * its exit code and the problems tsc and ESLint printed (real ones, from the project's tools) with
 * file:line; a script that outlasts its limit stopped with Ctrl-C; one stopped by task.cancel, one
 * by the client cancelling the call; an unknown script. The in-memory
 * workspace lists its scripts too (none), but its scripted shell runs no npm.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectAgent } from '../client.js';
import { useTarget } from '../setup.js';

const ctx = useTarget();
let dir: string;
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};

it('a workspace without package.json has no tasks; an unknown one is TASK_NOT_FOUND', async () => {
  if (ctx.target.workspaceDir) return;
  expect(await ctx.agent.ok('openspace.task.list')).toEqual({ success: true, tasks: [] });
  await ctx.agent.fails('openspace.task.run', { name: 'build' }, 'TASK_NOT_FOUND');
  await ctx.agent.fails('openspace.task.run', { name: 'build; rm -rf /' }, 'INVALID_ARGUMENT');
});

// A task's npm and its tools start in seconds on a busy 2-core machine.
describe('package.json scripts', { timeout: 60_000 }, () => {
  const SCRIPTS = {
    typecheck: 'tsc -p . --pretty false',
    lint: 'eslint src',
    hello: 'node -e "console.log(\'hi from a task\')"',
    wait: 'node -e "setTimeout(() => {}, 120000)"',
  };
  beforeEach((t) => {
    if (!dir) t.skip('the in-memory workspace has no directory for npm');
  });
  beforeAll(() => {
    if (!ctx.target.workspaceDir) return;
    dir = ctx.target.workspaceDir;
    write('package.json', JSON.stringify({ name: 'tasks', scripts: SCRIPTS }));
    // The project's tsc and ESLint are OpenSpace's own (its node_modules, read-only inside the sandbox).
    symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(dir, 'node_modules'));
    write('src/bad.ts', "export const a: number = 'x';\n");
    // Only the project's files: the @types packages of OpenSpace's node_modules would cost tsc 9 s of checking.
    write('tsconfig.json', JSON.stringify({ compilerOptions: { noEmit: true, lib: ['es5'], types: [] }, include: ['src'] }));
    write('src/lint.mjs', 'const y = 2;\nexport {};\n');
    write('eslint.config.mjs', "export default [{ files: ['src/**/*.mjs'], rules: { 'no-unused-vars': 'error' } }];\n");
  });

  it('list: every script with its command', async () => {
    const { tasks } = await ctx.agent.ok('openspace.task.list');
    expect(tasks).toEqual(Object.entries(SCRIPTS).map(([name, command]) => ({ name, command })));
  });

  it("tsc's errors come back as problems with file:line, from a terminal the person can read", async () => {
    const run = await ctx.agent.ok('openspace.task.run', { name: 'typecheck' });
    expect(run).toMatchObject({ name: 'typecheck', exitCode: 2, timedOut: false, terminalId: 'task-typecheck', created: true });
    expect(run.problems).toEqual([
      {
        path: 'src/bad.ts',
        line: 1,
        column: 14,
        severity: 'error',
        message: "Type 'string' is not assignable to type 'number'.",
        source: 'tsc',
        code: 'TS2322',
      },
    ]);
    const { terminals } = await ctx.agent.ok('openspace.terminal.list');
    expect(terminals.map((t: { title: string }) => t.title)).toContain('Task: typecheck');
  });

  it("ESLint's problems, with the rule; a clean script has none and its output", async () => {
    const lint = await ctx.agent.ok('openspace.task.run', { name: 'lint' });
    expect(lint).toMatchObject({ exitCode: 1 });
    expect(lint.problems).toEqual([
      {
        path: 'src/lint.mjs',
        line: 1,
        column: 7,
        severity: 'error',
        message: "'y' is assigned a value but never used",
        source: 'eslint',
        code: 'no-unused-vars',
      },
    ]);
    const hello = await ctx.agent.ok('openspace.task.run', { name: 'hello' });
    expect(hello).toMatchObject({ exitCode: 0, problems: [], output: ['hi from a task'] });
  });

  it('a script that outlasts its limit is stopped; its terminal runs the next one', async () => {
    const started = Date.now();
    const run = await ctx.agent.ok('openspace.task.run', { name: 'wait', timeoutMs: 3000 });
    expect(run.timedOut).toBe(true);
    expect(run.exitCode).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(20_000);
    const again = await ctx.agent.ok('openspace.task.run', { name: 'wait', timeoutMs: 3000 });
    expect(again).toMatchObject({ terminalId: run.terminalId, timedOut: true });
    expect(again.created).toBeUndefined();
  });

  it('task.cancel from another session stops a running task: its run answers cancelled, and its terminal runs the next one', async () => {
    const other = await connectAgent(ctx.target, 'task-canceller');
    try {
      expect(await other.ok('openspace.task.cancel', { name: 'wait' })).toEqual({ success: true, name: 'wait', cancelled: false });
      const started = Date.now();
      const run = ctx.agent.ok('openspace.task.run', { name: 'wait', timeoutMs: 60_000 });
      // Once the script runs (its terminal's shell says so), the cancel stops it.
      let cancelled;
      do {
        await new Promise((resolve) => setTimeout(resolve, 200));
        cancelled = await other.ok('openspace.task.cancel', { name: 'wait' });
      } while (!cancelled.cancelled && Date.now() - started < 30_000);
      expect(cancelled).toEqual({ success: true, name: 'wait', cancelled: true });
      const answer = await run;
      expect(answer).toMatchObject({ name: 'wait', cancelled: true, timedOut: false });
      expect(answer.exitCode).not.toBe(0);
      expect(Date.now() - started).toBeLessThan(40_000);
      const again = await ctx.agent.ok('openspace.task.run', { name: 'wait', timeoutMs: 3000 });
      expect(again).toMatchObject({ terminalId: answer.terminalId, timedOut: true });
      expect(again.cancelled).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("the agent's client cancelling task.run (MCP notifications/cancelled) stops the script", async () => {
    const stop = new AbortController();
    const started = Date.now();
    const running = ctx.agent.client.callTool({ name: 'openspace.task.run', arguments: { name: 'wait', timeoutMs: 60_000 } }, undefined, {
      signal: stop.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    stop.abort('the person pressed Esc');
    await expect(running).rejects.toThrow();
    // The session's next call runs once the cancelled one ended: the script is not running then.
    expect(await ctx.agent.ok('openspace.task.cancel', { name: 'wait' })).toEqual({ success: true, name: 'wait', cancelled: false });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('an unknown script: TASK_NOT_FOUND naming the ones there are', async () => {
    const failure = await ctx.agent.fails('openspace.task.run', { name: 'build' }, 'TASK_NOT_FOUND');
    expect(failure.error).toContain('typecheck, lint, hello, wait');
  });
});
