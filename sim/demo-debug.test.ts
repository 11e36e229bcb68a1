/**
 * The demo workspace's failing script under the debugger, as a new user meets it (`npm start`, an
 * MCP client over HTTP): the agent sets a breakpoint, runs the script, reads the value that explains
 * the TypeError, evaluates, steps into the failure, fixes the parser with file.patch and runs it
 * again to its total. The in-memory workspace runs programs in its copy on disk, in the sandbox.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectAgent, type Agent } from '../conformance/client.js';
import { startTarget, type Target } from '../conformance/target.js';

const SCRIPT = 'scripts/order_total.py';
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

it(
  'breakpoint, run, the value that explains the failure, evaluate, step, fix with file.patch, run to the end',
  { timeout: 60_000 },
  async () => {
    await agent.ok('openspace.debug.breakpoint.set', { path: SCRIPT, line: 23 });
    const hit = await agent.ok('openspace.debug.start', { program: SCRIPT, waitMs: 30_000 });
    expect(hit).toMatchObject({ status: 'stopped', stop: { reason: 'breakpoint' } });
    expect(hit.stop.frames[0]).toMatchObject({ path: SCRIPT, line: 23, name: 'line_total' });
    const qty = await agent.ok('openspace.debug.variables', { sessionId: hit.sessionId, path: "row['qty']" });
    expect(qty.variables).toEqual([expect.objectContaining({ value: "'4'", type: 'str' })]);
    expect(
      await agent.ok('openspace.debug.evaluate', { sessionId: hit.sessionId, expression: 'row["price"] * int(row["qty"])' }),
    ).toMatchObject({
      value: '6.0',
    });
    // A step over the multiplication leaves line_total with the error, back in its caller; going on, nothing catches it.
    const stepped = await agent.ok('openspace.debug.step', { sessionId: hit.sessionId });
    expect(stepped).toMatchObject({ status: 'stopped', stop: { reason: 'step' } });
    expect(stepped.stop.frames[0]).toMatchObject({ name: 'order_total', line: 27 });
    const failed = await agent.ok('openspace.debug.continue', { sessionId: hit.sessionId });
    expect(failed).toMatchObject({
      status: 'stopped',
      stop: { reason: 'exception', description: "TypeError: can't multiply sequence by non-int of type 'float'" },
    });
    expect(failed.stop.frames[0]).toMatchObject({ name: 'line_total', line: 23 });
    await agent.ok('openspace.debug.stop', { sessionId: hit.sessionId });

    const { version } = await agent.ok('openspace.file.read', { path: SCRIPT });
    await agent.ok('openspace.file.patch', {
      path: SCRIPT,
      baseVersion: version,
      operations: [{ type: 'replace_text', oldText: '"qty": qty}', newText: '"qty": int(qty)}' }],
    });
    await agent.ok('openspace.debug.breakpoint.remove', { path: SCRIPT });
    const fixed = await agent.ok('openspace.debug.start', { program: SCRIPT, waitMs: 30_000 });
    expect(fixed).toMatchObject({ status: 'exited', exitCode: 0, output: 'total 24.50\n' });
  },
);
