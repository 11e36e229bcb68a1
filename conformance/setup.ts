import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { connectAgent, type Agent } from './client.js';
import { startTarget, type Target, type TargetOptions } from './target.js';

export interface TargetContext {
  target: Target;
  agent: Agent;
}

/** One target per test file (a fresh copy of the fixture workspace) and an agent connected to it. */
export function useTarget(options?: TargetOptions): TargetContext {
  const ctx = {} as TargetContext;
  beforeAll(async () => {
    ctx.target = await startTarget(options);
    ctx.agent = await connectAgent(ctx.target);
  });
  afterAll(async () => {
    // A running hub is one IDE shared by every spec file: the terminals a file opened end with it, so
    // their sandboxes (and the empty mount points those keep in the workspace) do not last into the
    // next file. The simulated IDE and Theia the suite starts end with the file anyway.
    if (ctx.target && !ctx.target.sim && !ctx.target.page && ctx.agent) await closeTerminals(ctx.agent);
    // Ended, not only disconnected: a running hub shared by every spec file holds at most
    // MAX_SESSIONS_PER_TOKEN sessions, and one left open would count until it expires.
    await ctx.agent?.endSession().catch(() => ctx.agent?.close());
    await ctx.target?.close();
  });
  return ctx;
}

async function closeTerminals(agent: Agent): Promise<void> {
  const listed = await agent.call('openspace.terminal.list').catch(() => undefined);
  for (const { terminalId } of (listed?.terminals as { terminalId: string }[] | undefined) ?? [])
    await agent.call('openspace.terminal.close', { terminalId }).catch(() => undefined);
}

/** Poll until check() stops throwing, or fail with its last error after timeoutMs. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 3000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

/**
 * Theia answers a command before it shows or closes the tabs (see TheiaShellPort.afterAnswer):
 * resolves once the window has done that work, as a person then sees it. Elsewhere there is none.
 */
export async function tabsShown(target: Target): Promise<void> {
  await target.page?.evaluate(() => (globalThis as unknown as { openspaceProbe: { settled(): Promise<void> } }).openspaceProbe.settled());
}

/** The processes on this machine with their command lines (Linux's /proc), for specs that watch what a target started. */
export function processesRunning(): { pid: number; args: string[] }[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        return [{ pid: Number(entry), args: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').slice(0, -1) }];
      } catch {
        return []; // gone meanwhile
      }
    });
}
