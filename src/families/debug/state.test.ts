import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DebugSessionState } from './state.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** Whether `promise` has settled after the microtasks queued so far ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe("a stop's output", () => {
  it('waits for output that comes after the stop it preceded (debugpy relays it from another process)', async () => {
    const state = new DebugSessionState();
    state.event('output', { category: 'stdout', output: 'tick 0\n' });
    state.event('stopped', { reason: 'breakpoint', threadId: 1 });
    const arrived = state.outputArrived();
    await vi.advanceTimersByTimeAsync(40);
    state.event('output', { category: 'stdout', output: 'tick 1\n' });
    // 50 ms after the stop, but only 10 after the last output: still waiting.
    await vi.advanceTimersByTimeAsync(10);
    expect(await settled(arrived)).toBe(false);
    // 20 ms after the last output.
    await vi.advanceTimersByTimeAsync(10);
    expect(await settled(arrived)).toBe(true);
    expect(state.takeOutput().text).toBe('tick 0\ntick 1\n');
  });

  it('waits at most 300 ms after the stop, however long the output goes on', async () => {
    const state = new DebugSessionState();
    state.event('stopped', { reason: 'pause', threadId: 1 });
    const arrived = state.outputArrived();
    for (let t = 0; t < 290; t += 10) {
      state.event('output', { category: 'stdout', output: '.' });
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(await settled(arrived)).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(await settled(arrived)).toBe(true);
  });

  it('answers at once while the program runs', async () => {
    const state = new DebugSessionState();
    state.event('output', { category: 'stdout', output: 'running\n' });
    expect(await settled(state.outputArrived())).toBe(true);
    expect(state.takeOutput().text).toBe('running\n');
  });
});
