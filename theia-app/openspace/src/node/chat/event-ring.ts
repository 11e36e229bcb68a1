/**
 * A chat agent's events, numbered and kept in a ring, so a browser that lost its connection (a
 * reload, a network blip) asks for what it missed; across a gap (the stream to the agent dropped)
 * nobody can replay, and the browser loads afresh.
 */
import type { ChatClient, ChatConnection, Event, Replay, SequencedEvent } from '../../common/chat-protocol.js';

export class EventRing {
  private readonly ring: SequencedEvent[] = [];
  private seq = 0;
  /** The last seq before the stream came back from a drop: nobody at or before it can replay across the gap. */
  private gapAt: number | undefined;
  private readonly clients = new Set<ChatClient>();

  constructor(private readonly size = 5000) {}

  addClient(client: ChatClient): () => void {
    this.clients.add(client);
    return () => this.clients.delete(client);
  }

  publish(event: Event): void {
    const sequenced = { seq: ++this.seq, event };
    this.ring.push(sequenced);
    if (this.ring.length > this.size) this.ring.shift();
    for (const client of this.clients) client.onEvent(sequenced);
  }

  /** Events were lost from here on (the stream dropped and came back). */
  gap(): void {
    this.gapAt = this.seq;
  }

  connectionChanged(state: ChatConnection): void {
    for (const client of this.clients) client.onConnection(state);
  }

  replay(seq: number): Replay {
    const oldest = this.ring[0]?.seq ?? this.seq + 1;
    const complete = (this.gapAt === undefined || seq > this.gapAt) && seq >= oldest - 1 && seq <= this.seq;
    return { events: complete ? this.ring.filter((e) => e.seq > seq) : [], seq: this.seq, complete };
  }
}
