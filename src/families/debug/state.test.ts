import { describe, expect, it } from 'vitest';
import { DebugSessionState } from './state.js';

describe("a stop's output", () => {
  it('waits for output that comes after the stop it preceded (debugpy relays it from another process)', async () => {
    const state = new DebugSessionState();
    state.event('output', { category: 'stdout', output: 'tick 0\n' });
    state.event('stopped', { reason: 'breakpoint', threadId: 1 });
    setTimeout(() => state.event('output', { category: 'stdout', output: 'tick 1\n' }), 30);
    const started = Date.now();
    await state.outputArrived();
    expect(state.takeOutput().text).toBe('tick 0\ntick 1\n');
    expect(Date.now() - started).toBeLessThan(300);
  });

  it('answers at once while the program runs', async () => {
    const state = new DebugSessionState();
    state.event('output', { category: 'stdout', output: 'running\n' });
    const started = Date.now();
    await state.outputArrived();
    expect(Date.now() - started).toBeLessThan(10);
    expect(state.takeOutput().text).toBe('running\n');
  });
});
