/**
 * What a debug session is doing, from the events its adapter sends: running, stopped (where and
 * why), exited (with what code), and what the program printed since an agent last read it. Each IDE
 * makes one per session and feeds it every event from before the launch, so a stop that comes
 * before the agent asks is not missed. Browser-safe.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { MAX_OUTPUT_CHARS } from './tools.js';
import type { DebugProgramState } from './port.js';

export type DebugStatus = DebugProgramState['status'];

/**
 * Output can come after the stop it preceded: debugpy's launcher relays the program's output from
 * another process than the one that reports the stop, and on a busy machine it comes tens of
 * milliseconds later. A stop's answer takes the output once OUTPUT_LAG_MS have passed since the stop
 * and OUTPUT_QUIET_MS since the last output, at most OUTPUT_WAIT_MS after the stop.
 */
const OUTPUT_LAG_MS = 50;
const OUTPUT_QUIET_MS = 20;
const OUTPUT_WAIT_MS = 300;

export class DebugSessionState implements DebugProgramState {
  status: DebugStatus = 'starting';
  stopped: DebugProtocol.StoppedEvent['body'] | undefined;
  exitCode: number | undefined;
  /** Counts changes of status: a wait ends at the next one. */
  private generation = 0;
  private output = '';
  private outputDropped = false;
  private stoppedAt = 0;
  private printedAt = 0;
  private readonly listeners = new Set<() => void>();

  /** An event the adapter sent. */
  event(name: string, body: unknown): void {
    const b = (body ?? {}) as Record<string, unknown>;
    switch (name) {
      case 'stopped':
        this.set('stopped', b as DebugProtocol.StoppedEvent['body']);
        break;
      case 'continued':
        if (this.status !== 'exited') this.set('running');
        break;
      case 'exited':
        if (typeof b.exitCode === 'number') this.exitCode = b.exitCode;
        break;
      case 'terminated':
        this.set('exited');
        break;
      case 'output':
        if (b.category !== 'telemetry' && typeof b.output === 'string') this.print(b.output);
        break;
    }
  }

  /** The program runs from now on (a continue or step is about to be sent; its stop may come before the answer). */
  resumed(): void {
    if (this.status !== 'exited') this.set('running');
  }

  /** The adapter went away. */
  ended(): void {
    if (this.status !== 'exited') this.set('exited');
  }

  /** Told of every change of status. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the output printed before a stop has come (see OUTPUT_LAG_MS); at once unless stopped. */
  async outputArrived(): Promise<void> {
    while (this.status === 'stopped') {
      const until = Math.min(this.stoppedAt + OUTPUT_WAIT_MS, Math.max(this.stoppedAt + OUTPUT_LAG_MS, this.printedAt + OUTPUT_QUIET_MS));
      const left = until - Date.now();
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, left));
    }
  }

  /** What the program printed since the last call, the end of it kept. */
  takeOutput(): { text: string; truncated: boolean } {
    const taken = { text: this.output, truncated: this.outputDropped };
    this.output = '';
    this.outputDropped = false;
    return taken;
  }

  /**
   * Resolves when the program is stopped or has exited (at once if it is), or after `ms`, or when
   * `signal` aborts.
   */
  settle(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.status === 'stopped' || this.status === 'exited' || ms <= 0 || signal?.aborted) return Promise.resolve();
    const from = this.generation;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const check = () => {
        if (this.generation !== from && (this.status === 'stopped' || this.status === 'exited')) done();
      };
      const timer = setTimeout(done, ms);
      this.listeners.add(check);
      signal?.addEventListener('abort', done);
    });
  }

  private set(status: DebugStatus, stopped?: DebugProtocol.StoppedEvent['body']): void {
    this.status = status;
    this.stopped = stopped;
    if (status === 'stopped') this.stoppedAt = Date.now();
    this.generation++;
    for (const listener of [...this.listeners]) listener();
  }

  private print(text: string): void {
    this.printedAt = Date.now();
    this.output += text;
    if (this.output.length > MAX_OUTPUT_CHARS) {
      this.output = this.output.slice(-MAX_OUTPUT_CHARS);
      this.outputDropped = true;
    }
  }
}
