/**
 * A Chrome DevTools Protocol client over the relay (./relay.ts): requests by id, the inspector's
 * events, and the program's output and exit as the relay reports them. The types are the few parts
 * of the protocol the adapter reads (the devtools-protocol package is not a dependency).
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface RemoteObject {
  type: string;
  subtype?: string;
  className?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  objectId?: string;
}

export interface Location {
  scriptId: string;
  lineNumber: number;
  columnNumber?: number;
}

export interface Scope {
  type: string;
  object: RemoteObject;
  name?: string;
}

export interface CallFrame {
  callFrameId: string;
  functionName: string;
  location: Location;
  scopeChain: Scope[];
}

export interface PausedEvent {
  callFrames: CallFrame[];
  reason: string;
  data?: RemoteObject & { uncaught?: boolean; scriptId?: string };
  hitBreakpoints?: string[];
}

export interface ScriptParsedEvent {
  scriptId: string;
  url: string;
  sourceMapURL?: string;
}

export interface PropertyDescriptor {
  name: string;
  value?: RemoteObject;
  get?: RemoteObject;
  enumerable?: boolean;
}

export interface ExceptionDetails {
  text: string;
  exception?: RemoteObject;
}

/** What Runtime.evaluate, Debugger.evaluateOnCallFrame and Runtime.callFunctionOn answer. */
export interface EvaluateResult {
  result: RemoteObject;
  exceptionDetails?: ExceptionDetails;
}

export interface CallArgument {
  value?: unknown;
  unserializableValue?: string;
  objectId?: string;
}

export interface RelayHandlers {
  event(method: string, params: unknown): void;
  output(category: 'stdout' | 'stderr', text: string): void;
  /** The program ended (code and signal undefined when the relay itself died). */
  exit(code: number | null | undefined, signal: string | null | undefined): void;
}

type RelayMessage =
  | { type: 'ready' }
  | { type: 'cdp'; message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } } }
  | { type: 'output'; category: 'stdout' | 'stderr'; text: string }
  | { type: 'exit'; code: number | null; signal: string | null };

export class CdpConnection {
  /** Resolves once the relay is connected to the inspector; rejects if it ends first. */
  readonly ready: Promise<void>;
  private readonly pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  private nextId = 0;
  private ended = false;
  private exitReported = false;
  private stderr = '';

  constructor(
    private readonly relay: ChildProcess,
    private readonly handlers: RelayHandlers,
  ) {
    let ready!: () => void;
    let failed!: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => ((ready = resolve), (failed = reject)));
    this.ready.catch(() => {});
    relay.stderr?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2000)));
    relay.stdin?.on('error', () => {}); // Writing after the relay ended: its exit is reported instead.
    createInterface({ input: relay.stdout! }).on('line', (line) => {
      let message: RelayMessage;
      try {
        message = JSON.parse(line) as RelayMessage;
      } catch {
        return;
      }
      if (message.type === 'ready') ready();
      else if (message.type === 'output') handlers.output(message.category, message.text);
      else if (message.type === 'exit') this.reportExit(message.code, message.signal);
      else if (message.type === 'cdp') this.received(message.message);
    });
    const gone = (why: string) => {
      this.ended = true;
      failed(new Error(`The Node debugger relay ended before the program started: ${this.stderr.trim() || why}`));
      for (const { reject } of this.pending.values()) reject(new Error('The program has ended.'));
      this.pending.clear();
      this.reportExit(undefined, undefined);
    };
    // 'close' comes after the relay's stdout (with its exit line) has been read.
    relay.on('close', (code) => gone(`exit code ${code}`));
    relay.on('error', (error) => gone(error.message));
  }

  get alive(): boolean {
    return !this.ended;
  }

  send<T = unknown>(method: string, params: object = {}): Promise<T> {
    if (this.ended) return Promise.reject(new Error('The program has ended.'));
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.relay.stdin!.write(JSON.stringify({ id, method, params }) + '\n');
    });
  }

  /** Ends the relay: closing its stdin kills the program. */
  close(): void {
    this.relay.stdin?.end();
  }

  private received(message: Extract<RelayMessage, { type: 'cdp' }>['message']): void {
    if (message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    } else if (message.method) this.handlers.event(message.method, message.params);
  }

  private reportExit(code: number | null | undefined, signal: string | null | undefined): void {
    if (this.exitReported) return;
    this.exitReported = true;
    this.handlers.exit(code, signal);
  }
}
