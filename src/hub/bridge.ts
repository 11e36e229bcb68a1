import { failure, type CallContext, type Failure, type ToolResult } from '../contract/index.js';

/**
 * How the hub reaches an IDE: execute one command in the IDE's command registry and return the
 * command's structured result. The simulated IDE bridges in process; Theia over its RPC channel.
 */
export interface CommandBridge {
  /** `context` says which agent session calls; a bridge over RPC passes on only its serializable part. */
  execute(commandId: string, args: unknown, context: CallContext): Promise<ToolResult>;
}

/**
 * The IDEs that offered themselves to the hub. The most recently registered one serves
 * (in Theia: the last focused window); when it goes away the previous one takes over.
 */
export class BridgeRegistry {
  private readonly offered = new Map<string, CommandBridge>();
  private order: string[] = [];
  private readonly listeners = new Set<() => void>();

  /** An IDE makes a bridge available under an ID; it serves once registered. */
  offer(bridgeId: string, bridge: CommandBridge): void {
    this.offered.set(bridgeId, bridge);
  }

  /** Make an offered bridge the one that serves. Returns false if no bridge was offered under that ID. */
  register(bridgeId: string): boolean {
    if (!this.offered.has(bridgeId)) return false;
    this.order = [...this.order.filter((id) => id !== bridgeId), bridgeId];
    this.changed();
    return true;
  }

  /** The IDE went away (window closed, connection lost). */
  withdraw(bridgeId: string): void {
    this.offered.delete(bridgeId);
    const before = this.order.length;
    this.order = this.order.filter((id) => id !== bridgeId);
    if (this.order.length !== before) this.changed();
  }

  get currentId(): string | undefined {
    return this.order[this.order.length - 1];
  }

  get current(): CommandBridge | undefined {
    const id = this.currentId;
    return id === undefined ? undefined : this.offered.get(id);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

export const NO_BRIDGE: Failure = failure(
  'BRIDGE_UNAVAILABLE',
  'No IDE is connected to the OpenSpace hub. Start the IDE (or `npm start` for the simulated IDE) and try again.',
);

/** Run a bridge call with a time limit, turning a late or thrown answer into a structured failure. */
export async function executeWithTimeout(
  bridge: CommandBridge,
  commandId: string,
  args: unknown,
  context: CallContext,
  timeoutMs: number,
): Promise<ToolResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ToolResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          failure(
            'TIMEOUT',
            `The IDE did not answer ${commandId} within ${timeoutMs} ms. It may be busy or blocked by a dialog; check it and retry.`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([bridge.execute(commandId, args, context), timeout]);
  } catch (err) {
    return failure(
      'BRIDGE_UNAVAILABLE',
      `The IDE connection failed while running ${commandId}: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    clearTimeout(timer);
  }
}
