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

export class DebugSessionState implements DebugProgramState {
  status: DebugStatus = 'starting';
  stopped: DebugProtocol.StoppedEvent['body'] | undefined;
  exitCode: number | undefined;
  /** Counts changes of status: a wait ends at the next one. */
  private generation = 0;
  private output = '';
  private outputDropped = false;
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
    this.generation++;
    for (const listener of [...this.listeners]) listener();
  }

  private print(text: string): void {
    this.output += text;
    if (this.output.length > MAX_OUTPUT_CHARS) {
      this.output = this.output.slice(-MAX_OUTPUT_CHARS);
      this.outputDropped = true;
    }
  }
}
