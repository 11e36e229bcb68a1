/**
 * openspace.debug.attach: the person's programs, started here outside OpenSpace (as from their own
 * terminal), debugged while they run — a Node server by the port of its inspector and by its process
 * ID with the inspector off, a Python one by the port debugpy listens on. The person is asked first
 * every time (the program runs outside the sandbox), and saying no leaves the program untouched;
 * stopping the session lets go of the program, which goes on running.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectAgent, type Agent, type Result } from '../client.js';
import { eventually, useTarget } from '../setup.js';

const base = '/var/tmp/openspace-debug-attach-spec';
mkdirSync(base, { recursive: true });
const ctx = useTarget({ workspaceParent: base });

const SERVER_JS = `let ticks = 0;
function tick() {
  ticks += 1;
  const label = 'tick ' + ticks;
  return label;
}
setInterval(() => console.log(tick()), 50);
`;

const LOOP_PY = `import time

count = 0
while True:
    count += 1
    print(f"count {count}", flush=True)
    time.sleep(0.05)
`;

const TICKER_C = `#include <stdio.h>
#include <unistd.h>

static int tick(int n) {
  int doubled = n * 2;
  return doubled;
}

int main(void) {
  for (int n = 1;; n++) {
    printf("tick %d\\n", tick(n));
    fflush(stdout);
    usleep(50000);
  }
}
`;

/** A program the person runs, with what it printed so far. */
interface Running {
  child: ChildProcess;
  output: () => string;
}

const running: Running[] = [];

function run(command: string, args: string[]): Running {
  let output = '';
  const child = spawn(command, args, { cwd: ctx.target.workspaceDir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const program = { child, output: () => output };
  running.push(program);
  return program;
}

/** It goes on printing, and has not ended. */
async function stillRuns(program: Running): Promise<void> {
  const before = program.output().length;
  await eventually(() => expect(program.output().length).toBeGreaterThan(before + 20), 5000);
  expect(program.child.exitCode).toBeNull();
}

/** The loopback ports a process listens on (its inspector's, when it has one). */
function listening(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''];
      } catch {
        return [];
      }
    }),
  );
  return (
    readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // 0A: LISTEN
      .filter((f) => f[3] === '0A' && inodes.has(f[9] ?? '-'))
      .map((f) => parseInt(f[1]!.split(':')[1]!, 16))
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const where = (state: Result) => state.stop && `${state.stop.frames[0].path}:${state.stop.frames[0].line} ${state.stop.frames[0].name}`;
const local = (state: Result, name: string): string | undefined => state.stop?.locals.find((v: { name: string }) => v.name === name)?.value;

/** An agent whose person says `yes` to its questions (MCP elicitation); on Theia they answer in the window's dialog. */
function attacher(yes: boolean): Promise<Agent> {
  return connectAgent(ctx.target, yes ? 'attaching-agent' : 'refused-agent', { ask: () => (yes ? { allow: true } : undefined) });
}

/** Attach, the person answering in Theia's dialog there (elsewhere the agent's client answers for them). */
async function attach(agent: Agent, args: Record<string, unknown>, yes = true): Promise<Result> {
  const answer = agent.call('openspace.debug.attach', args);
  const page = ctx.target.page;
  if (page) {
    const dialog = page.locator('.dialogBlock', { hasText: 'Attach the debugger to a running program?' });
    await dialog.waitFor({ state: 'visible', timeout: 20_000 });
    await dialog.getByRole('button', { name: yes ? 'Attach' : 'Cancel' }).click();
    // Gone before the next question, which has the same words.
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  }
  return answer;
}

describe('attaching the debugger to a running program', { timeout: 60_000 }, () => {
  let agent: Agent;
  const sessions: string[] = [];
  beforeAll(async () => {
    agent = await attacher(true);
  });
  beforeEach((t) => {
    if (!ctx.target.workspaceDir) return t.skip('the in-memory workspace has no files for a program to run');
    mkdirSync(join(ctx.target.workspaceDir, 'dbg'), { recursive: true });
    writeFileSync(join(ctx.target.workspaceDir, 'dbg', 'server.js'), SERVER_JS);
    writeFileSync(join(ctx.target.workspaceDir, 'dbg', 'loop.py'), LOOP_PY);
  });
  afterEach(async () => {
    for (const sessionId of sessions.splice(0)) await agent.call('openspace.debug.stop', { sessionId });
    const { breakpoints } = await agent.ok('openspace.debug.breakpoint.list');
    for (const { id } of breakpoints) await agent.ok('openspace.debug.breakpoint.remove', { id });
    for (const { child } of running.splice(0)) child.kill('SIGKILL');
  });
  afterAll(() => agent?.close());

  it("a Node server by its inspector's port: stops at a breakpoint with its locals, and goes on running after debug.stop", async () => {
    const server = run(process.execPath, ['--inspect=127.0.0.1:0', 'dbg/server.js']);
    const port = Number((await eventually(() => /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(server.output())![1], 10_000))!);
    await agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/server.js', line: 4 });
    const state = await attach(agent, { port, waitMs: 10_000 });
    expect(state, state.error).toMatchObject({ success: true, status: 'stopped', stop: { reason: 'breakpoint' } });
    sessions.push(state.sessionId);
    expect(where(state)).toBe('dbg/server.js:4 tick');
    // label is tick's own, not assigned yet; ticks is the module's, as the closure sees it.
    expect(local(state, 'label')).toBe('undefined');
    const ticks = Number((await agent.ok('openspace.debug.evaluate', { sessionId: state.sessionId, expression: 'ticks' })).value);
    expect(ticks).toBeGreaterThan(0);
    expect(await agent.ok('openspace.debug.evaluate', { sessionId: state.sessionId, expression: 'ticks * 2' })).toMatchObject({
      value: String(ticks * 2),
    });
    const { breakpoints } = await agent.ok('openspace.debug.breakpoint.list');
    expect(breakpoints).toEqual([expect.objectContaining({ path: 'dbg/server.js', line: 4, verified: true })]);
    await agent.ok('openspace.debug.stop', { sessionId: sessions.pop() });
    await stillRuns(server);
    expect(server.output()).toContain(`tick ${ticks + 1}\n`);
  });

  it('a Node program by its process ID, its inspector off: turned on, then let go of', async () => {
    // --inspect-port: where the inspector listens once turned on (as kill -USR1 does), not 9229.
    const server = run(process.execPath, ['--inspect-port=127.0.0.1:0', 'dbg/server.js']);
    await eventually(() => expect(server.output()).toContain('tick 2\n'), 10_000);
    expect(listening(server.child.pid!)).toEqual([]);
    await agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/server.js', line: 4, condition: 'ticks % 2 === 0' });
    const state = await attach(agent, { pid: server.child.pid, waitMs: 10_000 });
    expect(state, state.error).toMatchObject({ success: true, status: 'stopped' });
    sessions.push(state.sessionId);
    expect(where(state)).toBe('dbg/server.js:4 tick');
    const ticks = async (sessionId: string) =>
      Number((await agent.ok('openspace.debug.evaluate', { sessionId, expression: 'ticks' })).value);
    const first = await ticks(state.sessionId);
    expect(first % 2).toBe(0);
    const next = await agent.ok('openspace.debug.continue', { sessionId: state.sessionId });
    expect(where(next)).toBe('dbg/server.js:4 tick');
    expect(await ticks(state.sessionId)).toBe(first + 2);
    await agent.ok('openspace.debug.stop', { sessionId: sessions.pop() });
    await stillRuns(server);
  });

  it('a Python program by the port debugpy listens on', async () => {
    const port = await freePort();
    const loop = run('/usr/bin/python3', ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, 'dbg/loop.py']);
    await eventually(() => expect(loop.output()).toContain('count 2\n'), 15_000);
    await agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/loop.py', line: 6 });
    const state = await attach(agent, { port, waitMs: 15_000 });
    expect(state, JSON.stringify(state)).toMatchObject({ success: true, status: 'stopped', stop: { reason: 'breakpoint' } });
    sessions.push(state.sessionId);
    expect(where(state)).toBe('dbg/loop.py:6 <module>');
    expect(Number(local(state, 'count'))).toBeGreaterThan(0);
    await agent.ok('openspace.debug.breakpoint.remove', { path: 'dbg/loop.py' });
    await agent.ok('openspace.debug.stop', { sessionId: sessions.pop() });
    await stillRuns(loop);
  });

  it('a C program by its process ID, through LLDB', async () => {
    const dir = ctx.target.workspaceDir!;
    writeFileSync(join(dir, 'dbg', 'ticker.c'), TICKER_C);
    execFileSync('cc', ['-g', '-O0', '-o', join(dir, 'dbg', 'ticker'), join(dir, 'dbg', 'ticker.c')]);
    const ticker = run(join(dir, 'dbg', 'ticker'), []);
    await eventually(() => expect(ticker.output()).toContain('tick 4\n'), 10_000);
    await agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/ticker.c', line: 5 });
    const state = await attach(agent, { pid: ticker.child.pid, waitMs: 15_000 });
    expect(state, JSON.stringify(state)).toMatchObject({ success: true, status: 'stopped' });
    sessions.push(state.sessionId);
    expect(where(state)).toBe('dbg/ticker.c:5 tick');
    expect(Number(local(state, 'n'))).toBeGreaterThan(1);
    await agent.ok('openspace.debug.breakpoint.remove', { path: 'dbg/ticker.c' });
    await agent.ok('openspace.debug.stop', { sessionId: sessions.pop() });
    await stillRuns(ticker);
  });

  it('the person saying no leaves the program untouched; bad targets are clear errors', async () => {
    const refused = await attacher(false);
    try {
      const server = run(process.execPath, ['--inspect-port=127.0.0.1:0', 'dbg/server.js']);
      await eventually(() => expect(server.output()).toContain('tick 1\n'), 10_000);
      expect(await attach(refused, { pid: server.child.pid }, false)).toMatchObject({ success: false, code: 'CONFIRMATION_DENIED' });
      await stillRuns(server);
      expect(listening(server.child.pid!)).toEqual([]);
      expect(server.output()).not.toContain('Debugger listening');
    } finally {
      await refused.close();
    }
    await agent.fails('openspace.debug.attach', {}, 'INVALID_ARGUMENT');
    await agent.fails('openspace.debug.attach', { pid: 1, port: 9229 }, 'INVALID_ARGUMENT');
    const port = await freePort();
    // debugpy attaches by port only; LLDB by process only.
    await agent.fails('openspace.debug.attach', { pid: process.pid, language: 'python' }, 'INVALID_ARGUMENT');
    await agent.fails('openspace.debug.attach', { port, language: 'c' }, 'INVALID_ARGUMENT');
    const nothing = await attach(agent, { port, language: 'node' });
    expect(nothing, JSON.stringify(nothing)).toMatchObject({ success: false, code: 'DEBUG_FAILED' });
  });
});
