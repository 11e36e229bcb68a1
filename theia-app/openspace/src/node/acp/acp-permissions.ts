/**
 * The agent's permission requests (`session/request_permission`) as the panel's cards: each waits
 * until the person answers (once, always or reject, as the agent's matching option), the turn is
 * cancelled, the agent gives the request up, or the agent exits; every outcome is told to the panel.
 */
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCall } from '@agentclientprotocol/sdk';
import type { Event, PermissionReply, PermissionRequest } from '../../common/chat-protocol.js';
import { permissionRequest } from './acp-messages.js';
import { partIds } from './acp-parts.js';

type Waiting = { request: PermissionRequest; options: PermissionOption[]; answer(response: RequestPermissionResponse): void };

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

export class PermissionCards {
  private readonly waiting = new Map<string, Waiting>();
  private readonly nextId = partIds('per_acp');

  constructor(private readonly emit: (event: Omit<Event, 'id'>) => void) {}

  /** A card for the request (`known`: its call as the turn showed it), answered when the person replies or `signal` aborts (the agent gave up). */
  ask(
    params: RequestPermissionRequest,
    signal: AbortSignal,
    messageID: string | undefined,
    known?: ToolCall,
  ): Promise<RequestPermissionResponse> {
    const id = this.nextId();
    const request = permissionRequest(params, id, messageID, known);
    return new Promise((answer) => {
      const waiting = { request, options: params.options, answer };
      this.waiting.set(id, waiting);
      this.emit({ type: 'permission.asked', properties: request });
      signal.addEventListener('abort', () => this.settle(id, CANCELLED, 'reject'));
    });
  }

  list(): PermissionRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  /** The person's answer on the card: once, always or reject, as the agent's matching option. */
  reply(requestID: string, reply: PermissionReply): boolean {
    const waiting = this.waiting.get(requestID);
    if (!waiting) return false;
    const kinds =
      reply === 'always'
        ? ['allow_always', 'allow_once']
        : reply === 'once'
          ? ['allow_once', 'allow_always']
          : ['reject_once', 'reject_always'];
    const option = kinds.map((kind) => waiting.options.find((o) => o.kind === kind)).find((o) => o !== undefined);
    this.settle(requestID, option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : CANCELLED, reply);
    return true;
  }

  /** The cards of a session (all of them without one) answered "cancelled", as ACP asks when a turn is cancelled. */
  cancel(sessionID?: string): void {
    for (const [id, waiting] of this.waiting)
      if (sessionID === undefined || waiting.request.sessionID === sessionID) this.settle(id, CANCELLED, 'reject');
  }

  private settle(id: string, response: RequestPermissionResponse, reply: PermissionReply): void {
    const waiting = this.waiting.get(id);
    if (!waiting || !this.waiting.delete(id)) return;
    waiting.answer(response);
    this.emit({ type: 'permission.replied', properties: { sessionID: waiting.request.sessionID, requestID: id, reply } });
  }
}
