/**
 * A terminal backend of the simulated IDE (a real shell through node-pty in sim/pty-shell.ts, or the
 * scripted shell in sim/scripted-shell.ts) and the event plumbing both use. Both deliver raw
 * terminal output (prompt, echoed input, `\r\n` line endings, possibly escape sequences); the
 * terminal layer sanitizes it and assembles lines (src/families/terminal/output.ts).
 */
export interface ShellBackend {
  /** Input, as if typed. Ignored after the shell exited. */
  write(data: string): void;
  /** End the shell; onExit fires (with 128 + signal for a pty, 129 for the scripted shell). */
  kill(): void;
  /** Output as it arrives. Output produced before the first listener attaches is kept for it. */
  onData(cb: (chunk: string) => void): void;
  /** Fires once with the exit code; a listener attached after the exit is called too. */
  onExit(cb: (code: number) => void): void;
  readonly pid?: number;
  /** The shell runs in the sandbox (src/security/sandbox.ts). */
  readonly sandboxed: boolean;
}

/** Ordered delivery with a backlog for values emitted before anyone listens. */
export class DataChannel {
  private readonly listeners: ((chunk: string) => void)[] = [];
  private backlog: string[] = [];
  private flushScheduled = false;

  on(cb: (chunk: string) => void): void {
    this.listeners.push(cb);
    if (this.backlog.length > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  emit(chunk: string): void {
    if (chunk === '') return;
    if (this.listeners.length === 0 || this.flushScheduled) this.backlog.push(chunk);
    else for (const cb of this.listeners) cb(chunk);
  }

  private flush(): void {
    this.flushScheduled = false;
    const chunks = this.backlog;
    this.backlog = [];
    const data = chunks.join('');
    for (const cb of this.listeners) cb(data);
  }
}

export class ExitSignal {
  private readonly listeners: ((code: number) => void)[] = [];
  private code: number | undefined;

  get fired(): boolean {
    return this.code !== undefined;
  }

  on(cb: (code: number) => void): void {
    const code = this.code;
    if (code === undefined) this.listeners.push(cb);
    else queueMicrotask(() => cb(code));
  }

  fire(code: number): void {
    if (this.code !== undefined) return;
    this.code = code;
    for (const cb of this.listeners.splice(0)) cb(code);
  }
}
