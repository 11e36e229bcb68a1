/**
 * The debugger (issue 32): a Python program (debugpy) and, where the workspace is on disk, a C one
 * (LLDB) and TypeScript and JavaScript ones (Node's inspector), each written here with its lines known by hand: breakpoints verified on their lines, a
 * condition, a hit count, a log point that prints without stopping, steps over, into and out
 * landing on those lines, the stack, a local and a nested value by path, evaluate, a variable set and
 * the program printing it, run to a line, the exit code, a program that never stops answering
 * "running" and pausing, a session its agent forgot ended by cleanup, and a program trying to reach
 * past the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectAgent, type Result } from '../client.js';
import { eventually, processesRunning, useTarget } from '../setup.js';

/** Outside /tmp, which the sandbox keeps private: a canary there would be unreachable for the wrong reason. */
const base = '/var/tmp/openspace-debug-spec';
const home = join(base, 'home');
mkdirSync(join(home, '.ssh'), { recursive: true });
const ctx = useTarget({ workspaceParent: base, home });
const SECRET = 'openspace-debug-canary-5e81f2';
process.env.OPENSPACE_DEBUG_CANARY_TOKEN = SECRET;

const CART = `import sys


def price(item):
    subtotal = item["price"] * item["qty"]
    return subtotal


def total(items):
    acc = 0
    for i, item in enumerate(items):
        acc += price(item)
    return acc


cart = [{"price": 3, "qty": 2}, {"price": 5, "qty": 4}, {"price": 7, "qty": 1}]
for n in range(3):
    print(f"tick {n}", flush=True)
print(f"total {total(cart)}", flush=True)
sys.exit(3)
`;

const FOREVER = `import time

count = 0
while True:
    count += 1
    time.sleep(0.05)
`;

const LATE = `import os, time

here = os.path.dirname(os.path.abspath(__file__))
open(os.path.join(here, "late-waiting"), "w").close()
while not os.path.exists(os.path.join(here, "late-go")):
    time.sleep(0.01)
for n in range(3):
    print(f"late {n}", flush=True)
open(os.path.join(here, "late-printed"), "w").close()
done = True
`;

/** Whether every thread of a process is stopped (state T): a thread woken in a read takes what came meanwhile before it stops. */
const allThreadsStopped = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).every((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
  });

/** The processes with an argument ending with `name`. */
const processesNaming = (name: string) => processesRunning().filter((p) => p.args.some((arg) => arg.endsWith(name)));

const PRICING = `def line_total(item):
    gross = item["price"] * item["qty"]
    return gross - item.get("discount", 0)
`;

const TEST_PRICING = `from pricing import line_total


def test_discount():
    assert line_total({"price": 10, "qty": 3, "discount": 5}) == 25


def test_no_discount():
    assert line_total({"price": 4, "qty": 2}) == 9
`;

type State = Result;
const where = (state: State) => state.stop && `${state.stop.frames[0].path}:${state.stop.frames[0].line} ${state.stop.frames[0].name}`;
const local = (state: State, name: string): string | undefined => state.stop?.locals.find((v: { name: string }) => v.name === name)?.value;

// The IDE is shared by the spec files of a run: the debug views Theia opened for the sessions go
// with them, as the tabs other files open do, so the next file meets the window it expects.
afterAll(async () => {
  const { panes } = await ctx.agent.ok('openspace.pane.list');
  const views = (panes as { tabs: { type: string; contentId: string }[] }[])
    .flatMap((p) => p.tabs)
    .filter((t) => t.type === 'view' && /^debug/.test(t.contentId));
  for (const { contentId } of views) await ctx.agent.call('openspace.pane.close', { contentId });
});

// A debugger starts in about a second; two at once on a busy 2-core machine take longer.
describe('Python, through debugpy', { timeout: 60_000 }, () => {
  const started: string[] = [];
  beforeAll(async () => {
    await ctx.agent.ok('openspace.file.write', { path: 'dbg/cart.py', content: CART });
    await ctx.agent.ok('openspace.file.write', { path: 'dbg/forever.py', content: FOREVER });
    await ctx.agent.ok('openspace.file.write', { path: 'dbg/pricing.py', content: PRICING });
    await ctx.agent.ok('openspace.file.write', { path: 'dbg/test_pricing.py', content: TEST_PRICING });
  });
  afterEach(async () => {
    for (const sessionId of started.splice(0)) await ctx.agent.call('openspace.debug.stop', { sessionId });
    const { breakpoints } = await ctx.agent.ok('openspace.debug.breakpoint.list');
    for (const { id } of breakpoints) await ctx.agent.ok('openspace.debug.breakpoint.remove', { id });
  });
  // A start waits for the first stop: up to 30 s here, for a busy machine (the default is 10).
  const start = async (args: Record<string, unknown>): Promise<State> => {
    const state = await ctx.agent.ok('openspace.debug.start', { waitMs: 30_000, ...args });
    started.push(state.sessionId);
    return state;
  };

  it('stops at a conditional breakpoint with the stack, the locals and what it printed; nested values by path; evaluate', async () => {
    const bp = await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/cart.py', line: 12, condition: 'i == 1' });
    expect(bp).toMatchObject({ path: 'dbg/cart.py', line: 12, requestedLine: 12, condition: 'i == 1', verified: false });
    const state = await start({ program: 'dbg/cart.py' });
    expect(state).toMatchObject({ status: 'stopped', stop: { reason: 'breakpoint' } });
    expect(state.stop.frames.slice(0, 2).map((f: { path: string; line: number; name: string }) => `${f.path}:${f.line} ${f.name}`)).toEqual(
      ['dbg/cart.py:12 total', 'dbg/cart.py:19 <module>'],
    );
    expect(local(state, 'i')).toBe('1');
    expect(local(state, 'acc')).toBe('6');
    expect(state.stop.locals.find((v: { name: string }) => v.name === 'item')).toMatchObject({ expandable: true });
    expect(state.output).toBe('tick 0\ntick 1\ntick 2\n');
    const { breakpoints } = await ctx.agent.ok('openspace.debug.breakpoint.list');
    expect(breakpoints).toEqual([expect.objectContaining({ id: bp.id, line: 12, verified: true })]);
    // The live state every agent reads names the session (the layout is published at most once a second).
    await eventually(async () => {
      const instructions = await (await fetch(`${ctx.target.origin}/openspace/instructions`, { headers: ctx.target.headers })).text();
      expect(instructions).toContain(`- Debugging: ${state.sessionId} dbg/cart.py stopped (breakpoint) (openspace.debug.wait)`);
    }, 5000);

    const qty = await ctx.agent.ok('openspace.debug.variables', { sessionId: state.sessionId, path: 'item' });
    expect(qty.variables.map((v: { name: string; value: string }) => `${v.name}=${v.value}`)).toEqual(
      expect.arrayContaining(["'price'=5", "'qty'=4"]),
    );
    const third = await ctx.agent.ok('openspace.debug.variables', { sessionId: state.sessionId, path: 'items[2].price' });
    expect(third.variables).toEqual([expect.objectContaining({ value: '7', expandable: false })]);
    expect(await ctx.agent.ok('openspace.debug.evaluate', { sessionId: state.sessionId, expression: 'acc + item["qty"]' })).toMatchObject({
      value: '10',
      type: 'int',
    });
    const stack = await ctx.agent.ok('openspace.debug.stack', { sessionId: state.sessionId });
    expect(stack.frames.map((f: { line: number; name: string }) => `${f.line} ${f.name}`)).toEqual(['12 total', '19 <module>']);
    await ctx.agent.fails('openspace.debug.variables', { sessionId: state.sessionId, path: 'items[7]' }, 'VARIABLE_NOT_FOUND');
    await ctx.agent.fails('openspace.debug.evaluate', { sessionId: state.sessionId, expression: 'nothing_here + 1' }, 'DEBUG_FAILED');
  });

  // debugpy's launcher relays what the program prints, from another process than the one that tells
  // the stop. Held up here (SIGSTOP) as a busy machine holds it up, the lines still come with the stop.
  it('a stop answers with what the program printed just before it, even when debugpy relays it late', async () => {
    const program = `dbg/late_${process.pid}.py`;
    await ctx.agent.ok('openspace.file.write', { path: program, content: LATE });
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: program, line: 10 });
    const answer = start({ program });
    // The launcher and the program it started, once the program runs (it waits for late-go to print).
    const { launcher, dir } = await eventually(
      () => {
        const named = processesNaming(basename(program));
        const launcher = named.find((p) => p.args.some((a) => a.endsWith('/debugpy/launcher')));
        const debuggee = named.find((p) => p !== launcher && p.args.some((a) => a.endsWith('/debugpy')));
        expect(launcher && debuggee, JSON.stringify(named)).toBeTruthy();
        const path = debuggee!.args.find((a) => a.endsWith(basename(program)))!;
        return { launcher: launcher!.pid, dir: dirname(resolve(readlinkSync(`/proc/${debuggee!.pid}/cwd`), path)) };
      },
      20_000,
      10,
    );
    await eventually(() => expect(existsSync(join(dir, 'late-waiting'))).toBe(true), 20_000, 10);
    process.kill(launcher, 'SIGSTOP');
    try {
      await eventually(() => expect(allThreadsStopped(launcher)).toBe(true), 20_000, 2);
      writeFileSync(join(dir, 'late-go'), '');
      // Printed, and at the breakpoint; then longer than a stop's answer waits for stragglers (50 ms).
      await eventually(() => expect(existsSync(join(dir, 'late-printed'))).toBe(true), 20_000, 10);
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.kill(launcher, 'SIGCONT');
    }
    const state = await answer;
    expect(where(state)).toBe(`${program}:10 <module>`);
    expect(state.output).toBe('late 0\nlate 1\nlate 2\n');
  });

  it('steps into, over and out onto the lines they should, sets a variable and sees the program print it, and answers the exit code', async () => {
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/cart.py', line: 12, hitCount: 2 });
    const state = await start({ program: 'dbg/cart.py' });
    expect(where(state)).toBe('dbg/cart.py:12 total');
    expect(local(state, 'i')).toBe('1');
    const into = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId, kind: 'into' });
    expect(where(into)).toBe('dbg/cart.py:5 price');
    const over = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId, kind: 'over' });
    expect(where(over)).toBe('dbg/cart.py:6 price');
    expect(local(over, 'subtotal')).toBe('20');
    const out = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId, kind: 'out' });
    expect(where(out)).toBe('dbg/cart.py:12 total');
    // Back in the loop, acc holds the first two items (6 + 20): set it to 100, and the program prints 100 + 7.
    const loop = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId });
    expect(where(loop)).toBe('dbg/cart.py:11 total');
    expect(local(loop, 'acc')).toBe('26');
    await ctx.agent.ok('openspace.debug.breakpoint.remove', { path: 'dbg/cart.py' });
    expect(await ctx.agent.ok('openspace.debug.set_variable', { sessionId: state.sessionId, path: 'acc', value: '100' })).toMatchObject({
      value: '100',
    });
    // sys.exit(3) is an exception nothing catches: it stops there first, as in VS Code and Theia.
    const exiting = await ctx.agent.ok('openspace.debug.continue', { sessionId: state.sessionId });
    expect(exiting).toMatchObject({ status: 'stopped', stop: { reason: 'exception', description: expect.stringContaining('SystemExit') } });
    expect(where(exiting)).toBe('dbg/cart.py:20 <module>');
    const exited = await ctx.agent.ok('openspace.debug.continue', { sessionId: state.sessionId });
    expect(exited).toMatchObject({ status: 'exited', exitCode: 3 });
    // Printed the moment before the stop: debugpy's launcher reads the program's output on a path of
    // its own, so on a busy machine it comes with the answer after the stop's (never lost, never twice).
    expect((exiting.output + exited.output).match(/total 107\n/g)).toHaveLength(1);
    await ctx.agent.fails('openspace.debug.stack', { sessionId: state.sessionId }, 'DEBUG_NOT_STOPPED');
  });

  it('a log point prints without stopping; run to a line from the entry', async () => {
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/cart.py', line: 18, logMessage: 'n is {n}' });
    const entry = await start({ program: 'dbg/cart.py', stopOnEntry: true });
    expect(entry).toMatchObject({ status: 'stopped', stop: { reason: 'entry' } });
    expect(where(entry)).toBe('dbg/cart.py:1 <module>');
    const at = await ctx.agent.ok('openspace.debug.run_to', { sessionId: entry.sessionId, path: 'dbg/cart.py', line: 19 });
    expect(where(at)).toBe('dbg/cart.py:19 <module>');
    expect(at.output).toMatch(/n is 0\n(.|\n)*n is 1\n(.|\n)*n is 2\n/);
    // run_to's own breakpoint is gone; the log point stays.
    const { breakpoints } = await ctx.agent.ok('openspace.debug.breakpoint.list');
    expect(breakpoints).toEqual([expect.objectContaining({ line: 18, logMessage: 'n is {n}' })]);
    expect(await ctx.agent.ok('openspace.debug.continue', { sessionId: entry.sessionId })).toMatchObject({
      status: 'stopped',
      stop: { reason: 'exception' },
    });
    expect(await ctx.agent.ok('openspace.debug.continue', { sessionId: entry.sessionId })).toMatchObject({ status: 'exited', exitCode: 3 });
  });

  it('a program that never stops answers "running" at the end of the wait; pause stops it where it is; stop ends it', async () => {
    const began = Date.now();
    const state = await start({ program: 'dbg/forever.py', waitMs: 1500 });
    expect(state).toMatchObject({ status: 'running' });
    expect(Date.now() - began).toBeGreaterThanOrEqual(1500);
    expect(await ctx.agent.ok('openspace.debug.wait', { sessionId: state.sessionId, waitMs: 300 })).toMatchObject({ status: 'running' });
    await ctx.agent.fails('openspace.debug.variables', { sessionId: state.sessionId }, 'DEBUG_NOT_STOPPED');
    const paused = await ctx.agent.ok('openspace.debug.pause', { sessionId: state.sessionId });
    expect(paused).toMatchObject({ status: 'stopped', stop: { reason: 'pause' } });
    expect(paused.stop.frames[0].path).toBe('dbg/forever.py');
    expect(Number(local(paused, 'count'))).toBeGreaterThan(0);
    await ctx.agent.ok('openspace.debug.stop', { sessionId: state.sessionId });
    await ctx.agent.fails('openspace.debug.wait', { sessionId: state.sessionId }, 'DEBUG_SESSION_NOT_FOUND');
  });

  it('a session its agent forgot ends with the agent; so do its breakpoints', async () => {
    const agent = await connectAgent(ctx.target, 'forgetful-agent');
    await agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/forever.py', line: 5 });
    const state = await agent.ok('openspace.debug.start', { program: 'dbg/forever.py', waitMs: 30_000 });
    expect(state).toMatchObject({ status: 'stopped', stop: { reason: 'breakpoint' } });
    await agent.endSession();
    await eventually(async () => {
      await ctx.agent.fails('openspace.debug.wait', { sessionId: state.sessionId, waitMs: 0 }, 'DEBUG_SESSION_NOT_FOUND');
      expect((await ctx.agent.ok('openspace.debug.breakpoint.list')).breakpoints).toEqual([]);
    }, 10_000);
  });

  it("a command line: pytest runs one test, stopping in the code it tests, and answers pytest's exit code", async () => {
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/pricing.py', line: 3 });
    const state = await start({ command: 'pytest dbg/test_pricing.py -q -p no:cacheprovider -k no_discount' });
    expect(state).toMatchObject({ status: 'stopped', stop: { reason: 'breakpoint' } });
    expect(state.stop.frames.slice(0, 2).map((f: { path: string; line: number; name: string }) => `${f.path}:${f.line} ${f.name}`)).toEqual(
      ['dbg/pricing.py:3 line_total', 'dbg/test_pricing.py:9 test_no_discount'],
    );
    expect(local(state, 'gross')).toBe('8');
    await ctx.agent.ok('openspace.debug.breakpoint.remove', { path: 'dbg/pricing.py' });
    const end = await ctx.agent.ok('openspace.debug.continue', { sessionId: state.sessionId });
    expect(end).toMatchObject({ status: 'exited', exitCode: 1 });
    expect(end.output).toMatch(/1 failed, 1 deselected/);
  });

  it('bad calls: an unknown session, a step while running, a program that is not there, a path outside', async () => {
    await ctx.agent.fails('openspace.debug.start', { program: 'dbg/cart.py', command: 'python3 dbg/cart.py' }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.debug.start', { command: 'python3 dbg/cart.py', args: ['x'] }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.debug.start', { command: 'npm test' }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.debug.start', { command: 'python3 dbg/cart.py | tee out' }, 'INVALID_ARGUMENT');
    await ctx.agent.fails('openspace.debug.start', { command: 'python3 dbg/missing.py' }, 'FILE_NOT_FOUND');
    await ctx.agent.fails('openspace.debug.continue', { sessionId: 'debug-404' }, 'DEBUG_SESSION_NOT_FOUND');
    await ctx.agent.fails('openspace.debug.breakpoint.remove', { id: 'bp-404' }, 'BREAKPOINT_NOT_FOUND');
    await ctx.agent.fails('openspace.debug.start', { program: '../outside.py' }, 'PATH_OUTSIDE_WORKSPACE');
    await ctx.agent.fails('openspace.debug.start', { program: 'dbg/missing.py' }, 'FILE_NOT_FOUND');
    const state = await start({ program: 'dbg/forever.py', waitMs: 0 });
    await ctx.agent.fails('openspace.debug.step', { sessionId: state.sessionId }, 'DEBUG_NOT_STOPPED');
  });
});

describe('the sandbox', { timeout: 60_000 }, () => {
  it("a program under the debugger cannot read the person's keys, write beside the workspace, or see secrets in its environment", async (t) => {
    const dir = ctx.target.workspaceDir;
    if (!dir) return t.skip('the in-memory workspace runs programs in a copy of its own (no person files beside it to reach)');
    const canary = join(home, '.ssh', 'id_rsa');
    const escaped = join(dir, '..', `${dir.split('/').pop()}-debug-escaped`);
    writeFileSync(canary, SECRET);
    await ctx.agent.ok('openspace.file.write', {
      path: 'dbg/escape.py',
      content: `import os
for attempt in (lambda: open(${JSON.stringify(canary)}).read(), lambda: open(${JSON.stringify(escaped)}, "w").write("out")):
    try:
        print("did", attempt(), flush=True)
    except OSError as error:
        print("refused", error.strerror, flush=True)
print("env", dict(os.environ), flush=True)
`,
    });
    const end = await ctx.agent.ok('openspace.debug.start', { program: 'dbg/escape.py', waitMs: 30_000 });
    expect(end).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(end.output).toContain('refused No such file or directory');
    expect(end.output).toContain('refused Read-only file system');
    expect(end.output).not.toContain(SECRET);
    expect(existsSync(escaped)).toBe(false);
  });
});

const CART_TS = `interface Item {
  price: number;
  qty: number;
}

function price(item: Item): number {
  const subtotal = item.price * item.qty;
  return subtotal;
}

function total(items: Item[]): number {
  let acc = 0;
  for (let i = 0; i < items.length; i++) {
    acc += price(items[i]);
  }
  return acc;
}

const cart: Item[] = [{ price: 3, qty: 2 }, { price: 5, qty: 4 }, { price: 7, qty: 1 }];
for (let n = 0; n < 3; n++) {
  console.log(\`tick \${n}\`);
}
console.log(\`total \${total(cart)}\`);
process.exitCode = 3;
`;

const BOOM_JS = `const order = { id: 7, items: null };
function count(o) {
  return o.items.length;
}
console.log('counting');
console.log(count(order));
`;

describe('TypeScript and JavaScript on Node, through its inspector', { timeout: 60_000 }, () => {
  const started: string[] = [];
  beforeAll(() => {
    const dir = ctx.target.workspaceDir;
    if (!dir) return;
    mkdirSync(join(dir, 'dbg'), { recursive: true });
    writeFileSync(join(dir, 'dbg', 'cart.ts'), CART_TS);
    writeFileSync(join(dir, 'dbg', 'boom.js'), BOOM_JS);
    // A TypeScript program runs through the workspace's tsx (OpenSpace's own here, read-only inside the sandbox).
    if (!existsSync(join(dir, 'node_modules')))
      symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(dir, 'node_modules'));
  });
  beforeEach((t) => {
    if (!ctx.target.workspaceDir) t.skip('the in-memory workspace has no node_modules for tsx');
  });
  afterEach(async () => {
    for (const sessionId of started.splice(0)) await ctx.agent.call('openspace.debug.stop', { sessionId });
    const { breakpoints } = await ctx.agent.ok('openspace.debug.breakpoint.list');
    for (const { id } of breakpoints) await ctx.agent.ok('openspace.debug.breakpoint.remove', { id });
  });
  const start = async (args: Record<string, unknown>): Promise<State> => {
    const state = await ctx.agent.ok('openspace.debug.start', { waitMs: 30_000, ...args });
    started.push(state.sessionId);
    return state;
  };

  it('a conditional breakpoint on a .ts line stops there: .ts frames, locals, nested values by path, evaluate', async () => {
    const bp = await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/cart.ts', line: 14, condition: 'i === 1' });
    const state = await start({ program: 'dbg/cart.ts' });
    expect(state).toMatchObject({ status: 'stopped', stop: { reason: 'breakpoint' } });
    expect(where(state)).toBe('dbg/cart.ts:14 total');
    expect(state.stop.frames[1]).toMatchObject({ path: 'dbg/cart.ts', line: 23 });
    expect(local(state, 'i')).toBe('1');
    expect(local(state, 'acc')).toBe('6');
    expect(state.output).toBe('tick 0\ntick 1\ntick 2\n');
    expect((await ctx.agent.ok('openspace.debug.breakpoint.list')).breakpoints).toEqual([
      expect.objectContaining({ id: bp.id, path: 'dbg/cart.ts', line: 14, verified: true }),
    ]);
    const third = await ctx.agent.ok('openspace.debug.variables', { sessionId: state.sessionId, path: 'items[2].price' });
    expect(third.variables).toEqual([expect.objectContaining({ value: '7', expandable: false })]);
    expect(await ctx.agent.ok('openspace.debug.evaluate', { sessionId: state.sessionId, expression: 'acc + items[i].qty' })).toMatchObject({
      value: '10',
    });
    await ctx.agent.fails('openspace.debug.evaluate', { sessionId: state.sessionId, expression: 'nothingHere + 1' }, 'DEBUG_FAILED');
  });

  it('a command line: npx tsx runs the TypeScript program, stopping on its .ts line', async () => {
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/cart.ts', line: 8 });
    const state = await start({ command: 'npx tsx dbg/cart.ts' });
    expect(where(state)).toBe('dbg/cart.ts:8 price');
    expect(local(state, 'subtotal')).toBe('6');
  });

  it('steps into, over and out on .ts lines, sets a variable the program then prints, and answers the exit code', async () => {
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/cart.ts', line: 14, hitCount: 2 });
    const state = await start({ program: 'dbg/cart.ts' });
    expect(where(state)).toBe('dbg/cart.ts:14 total');
    expect(local(state, 'i')).toBe('1');
    const into = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId, kind: 'into' });
    expect(where(into)).toBe('dbg/cart.ts:7 price');
    const over = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId, kind: 'over' });
    expect(where(over)).toBe('dbg/cart.ts:8 price');
    expect(local(over, 'subtotal')).toBe('20');
    // Node's inspector steps out to the next place the caller stops: past the +=, on the loop's i++.
    const out = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId, kind: 'out' });
    expect(where(out)).toBe('dbg/cart.ts:13 total');
    expect(local(out, 'acc')).toBe('26');
    await ctx.agent.ok('openspace.debug.breakpoint.remove', { path: 'dbg/cart.ts' });
    // acc holds the first two items (6 + 20): make it 100, and the program prints 100 + 7.
    expect(await ctx.agent.ok('openspace.debug.set_variable', { sessionId: state.sessionId, path: 'acc', value: '100' })).toMatchObject({
      value: '100',
    });
    const end = await ctx.agent.ok('openspace.debug.continue', { sessionId: state.sessionId });
    expect(end).toMatchObject({ status: 'exited', exitCode: 3 });
    expect(end.output).toContain('total 107\n');
  });

  it('a log point prints without stopping; an uncaught TypeError stops where it is thrown, with its message', async () => {
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'dbg/cart.ts', line: 21, logMessage: 'n is {n}' });
    const logged = await start({ program: 'dbg/cart.ts' });
    expect(logged).toMatchObject({ status: 'exited', exitCode: 3 });
    expect(logged.output).toMatch(/n is 0\n(.|\n)*n is 1\n(.|\n)*n is 2\n/);
    const boom = await start({ program: 'dbg/boom.js' });
    expect(boom).toMatchObject({
      status: 'stopped',
      stop: { reason: 'exception', description: expect.stringContaining("TypeError: Cannot read properties of null (reading 'length')") },
    });
    expect(where(boom)).toBe('dbg/boom.js:3 count');
    expect(boom.output).toBe('counting\n');
  });
});

const C_PROGRAM = `#include <stdio.h>

static int square(int n) {
  int result = n * n;
  return result;
}

int main(void) {
  int sum = 0;
  for (int i = 1; i <= 3; i++) {
    sum += square(i);
  }
  printf("sum %d\\n", sum);
  return sum == 14 ? 0 : 1;
}
`;

describe('C, through LLDB', { timeout: 60_000 }, () => {
  it('breakpoints, a step into, a local and evaluate in a C program built with -g', async (t) => {
    const dir = ctx.target.workspaceDir;
    if (!dir) return t.skip('the in-memory workspace has no directory to build a program in');
    writeFileSync(join(dir, 'square.c'), C_PROGRAM);
    execFileSync('cc', ['-g', '-O0', '-o', join(dir, 'square'), join(dir, 'square.c')]);
    await ctx.agent.ok('openspace.debug.breakpoint.set', { path: 'square.c', line: 11, condition: 'i == 2' });
    // The command line a person types: an ELF executable is LLDB's.
    const state = await ctx.agent.ok('openspace.debug.start', { command: './square', waitMs: 30_000 });
    try {
      expect(where(state)).toBe('square.c:11 main');
      expect(local(state, 'i')).toBe('2');
      expect(local(state, 'sum')).toBe('1');
      const into = await ctx.agent.ok('openspace.debug.step', { sessionId: state.sessionId, kind: 'into' });
      expect(where(into)).toBe('square.c:4 square');
      expect(await ctx.agent.ok('openspace.debug.evaluate', { sessionId: state.sessionId, expression: 'n * 10' })).toMatchObject({
        value: '20',
      });
      await ctx.agent.ok('openspace.debug.breakpoint.remove', { path: 'square.c' });
      const end = await ctx.agent.ok('openspace.debug.continue', { sessionId: state.sessionId });
      expect(end).toMatchObject({ status: 'exited', exitCode: 0 });
      expect(end.output).toContain('sum 14');
    } finally {
      await ctx.agent.call('openspace.debug.stop', { sessionId: state.sessionId });
    }
  });
});
