/**
 * What the chat panel knows of OpenCode: its sessions, each session's messages and their parts,
 * which sessions are busy, the permission requests waiting for the person, and the last error of a
 * session. Loaded whole (sessions(), messages()) and then kept current by OpenCode's events, the
 * way OpenCode's own clients do. Pure: no Theia, no RPC, so it is tested with plain events.
 */
import type {
  Event,
  Message,
  MessageEntry,
  Part,
  PermissionRequest,
  QuestionRequest,
  Session,
  SessionStatus,
} from '../../common/chat-protocol.js';

/** OpenCode's IDs grow with time, so sorting by ID puts messages and parts in the order they happened. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: { id: string }, b: { id: string }) => compare(a.id, b.id);

/** `list` with `item` in place of the one with its key, or added in key order. */
function upsert<T>(list: T[], item: T, key: (x: T) => string): T[] {
  const id = key(item);
  const at = list.findIndex((x) => key(x) === id);
  if (at >= 0) return list.map((x, i) => (i === at ? item : x));
  return [...list, item].sort((a, b) => compare(key(a), key(b)));
}
const partId = (p: Part) => p.id;
const entryId = (e: MessageEntry) => e.info.id;

/** The map holding just `items`, by ID. */
function replaceAll<T extends { id: string }>(map: Map<string, T>, items: T[]): void {
  map.clear();
  for (const item of items) map.set(item.id, item);
}

const inSession = <T extends { sessionID: string }>(map: Map<string, T>, sessionID: string): T[] =>
  [...map.values()].filter((x) => x.sessionID === sessionID);

export class ChatModel {
  readonly sessions = new Map<string, Session>();
  readonly messages = new Map<string, MessageEntry[]>();
  readonly statuses = new Map<string, SessionStatus>();
  readonly permissions = new Map<string, PermissionRequest>();
  readonly questions = new Map<string, QuestionRequest>();
  readonly errors = new Map<string, string>();

  /** Forget everything (the panel talks to another agent now). */
  clear(): void {
    for (const map of [this.sessions, this.messages, this.statuses, this.permissions, this.questions, this.errors]) map.clear();
  }

  /** Sessions newest first, sub-sessions (an agent's own tasks) left out as OpenCode's list does; a fork is a session of its own. */
  sessionList(): Session[] {
    return [...this.sessions.values()].filter((s) => !s.parentID).sort((a, b) => b.time.updated - a.time.updated);
  }

  /** OpenCode's list replaces what was `known` before it was asked for; sessions that came since stay. */
  setSessions(sessions: Session[], known: Set<string> = new Set(this.sessions.keys())): void {
    for (const id of known) this.sessions.delete(id);
    for (const session of sessions) this.sessions.set(session.id, session);
  }

  setMessages(sessionID: string, entries: MessageEntry[]): void {
    this.messages.set(
      sessionID,
      entries.map((e) => ({ info: e.info, parts: [...e.parts].sort(byId) })),
    );
  }

  setStatuses(statuses: Record<string, SessionStatus>): void {
    this.statuses.clear();
    for (const [id, status] of Object.entries(statuses)) this.statuses.set(id, status);
  }

  setPermissions(requests: PermissionRequest[]): void {
    replaceAll(this.permissions, requests);
  }

  setQuestions(requests: QuestionRequest[]): void {
    replaceAll(this.questions, requests);
  }

  questionsFor(sessionID: string): QuestionRequest[] {
    return inSession(this.questions, sessionID);
  }

  busy(sessionID: string): boolean {
    const status = this.statuses.get(sessionID);
    return status !== undefined && status.type !== 'idle';
  }

  permissionsFor(sessionID: string): PermissionRequest[] {
    return inSession(this.permissions, sessionID);
  }

  /** Applies one of OpenCode's events; false when it changes nothing the panel shows. */
  apply(event: Event): boolean {
    switch (event.type) {
      case 'session.created':
      case 'session.updated':
        this.sessions.set(event.properties.info.id, event.properties.info);
        return true;
      case 'session.deleted':
        this.sessions.delete(event.properties.info.id);
        this.messages.delete(event.properties.info.id);
        this.statuses.delete(event.properties.info.id);
        return true;
      case 'session.status':
        this.statuses.set(event.properties.sessionID, event.properties.status);
        if (event.properties.status.type === 'busy') this.errors.delete(event.properties.sessionID);
        return true;
      case 'session.idle':
        this.statuses.set(event.properties.sessionID, { type: 'idle' });
        return true;
      case 'session.error': {
        const { sessionID, error } = event.properties;
        if (!sessionID || !error) return false;
        const data = (error as { data?: { message?: string } }).data;
        this.errors.set(sessionID, data?.message || error.name);
        return true;
      }
      case 'message.updated':
        this.updateMessage(event.properties.info);
        return true;
      case 'message.removed':
        return this.editMessages(event.properties.sessionID, (list) => list.filter((e) => e.info.id !== event.properties.messageID));
      case 'message.part.updated':
        this.updatePart(event.properties.part);
        return true;
      case 'message.part.removed': {
        const { sessionID, messageID, partID } = event.properties;
        return this.editMessages(sessionID, (list) =>
          list.map((e) => (e.info.id === messageID ? { ...e, parts: e.parts.filter((p) => p.id !== partID) } : e)),
        );
      }
      case 'message.part.delta':
        return this.appendDelta(event.properties);
      case 'permission.asked':
        this.permissions.set(event.properties.id, event.properties);
        return true;
      case 'permission.replied':
        return this.permissions.delete(event.properties.requestID);
      case 'question.asked':
        this.questions.set(event.properties.id, event.properties);
        return true;
      case 'question.replied':
      case 'question.rejected':
        return this.questions.delete(event.properties.requestID);
      default:
        return false;
    }
  }

  private editMessages(sessionID: string, edit: (list: MessageEntry[]) => MessageEntry[]): boolean {
    const list = this.messages.get(sessionID);
    if (!list) return false;
    this.messages.set(sessionID, edit(list));
    return true;
  }

  private updateMessage(info: Message): void {
    const list = this.messages.get(info.sessionID) ?? [];
    const old = list.find((e) => e.info.id === info.id);
    this.messages.set(info.sessionID, upsert(list, { info, parts: old?.parts ?? [] }, entryId));
  }

  private updatePart(part: Part): void {
    const list = this.messages.get(part.sessionID) ?? [];
    let entry = list.find((e) => e.info.id === part.messageID);
    // A part can come before its message: keep it under a stand-in until the message arrives.
    entry ??= { info: { id: part.messageID, sessionID: part.sessionID, role: 'assistant' } as Message, parts: [] };
    this.messages.set(part.sessionID, upsert(list, { ...entry, parts: upsert(entry.parts, part, partId) }, entryId));
  }

  private appendDelta({
    sessionID,
    messageID,
    partID,
    field,
    delta,
  }: {
    sessionID: string;
    messageID: string;
    partID: string;
    field: string;
    delta: string;
  }) {
    return this.editMessages(sessionID, (list) =>
      list.map((e) =>
        e.info.id !== messageID
          ? e
          : {
              ...e,
              parts: e.parts.map((p) => {
                const value = (p as unknown as Record<string, unknown>)[field];
                return p.id === partID && typeof value === 'string' ? ({ ...p, [field]: value + delta } as Part) : p;
              }),
            },
      ),
    );
  }
}
