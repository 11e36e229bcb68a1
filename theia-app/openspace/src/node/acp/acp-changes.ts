/**
 * What an ACP agent's tool calls changed in the workspace, so that the person can review a turn's
 * changes hunk by hunk afterwards (the panel's "Review changes"). An agent edits through its own
 * tools (Claude's Edit and Write) as well as OpenSpace's, and ACP says a call's files only loosely
 * (locations, a diff's path, the call's input), so: the first time a call is seen, the files it
 * names are read as they are ("before"; the agent asks permission or runs the call after telling of
 * it: read at once, as the call is told of, before anything the agent sends later is handled); when it completes, those that differ now are its changes. Where the call's diff shows the
 * read came too late (the file already held the diff's new text, or lacked its old text, as a file
 * read while the agent was writing it does), "before" is rebuilt from it.
 */
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { FileChange } from '../../common/chat-protocol.js';
import { callArguments } from './acp-parts.js';

/** Files larger than this, or not text, are not kept for review. */
const MAX_BYTES = 1024 * 1024;
/** At most this many files of one call are read. */
const MAX_FILES = 20;

type Before = string | null | undefined;

export class TurnChanges {
  private readonly befores = new Map<string, Map<string, Before>>();

  constructor(private readonly root: string) {}

  /** A call was seen (again): read the files it names that were not read yet. */
  seen(call: ToolCall | ToolCallUpdate): void {
    const reads = this.befores.get(call.toolCallId) ?? new Map<string, Before>();
    this.befores.set(call.toolCallId, reads);
    for (const path of this.paths(call)) if (!reads.has(path) && reads.size < MAX_FILES) reads.set(path, this.readNow(path));
  }

  /** The call completed: the files it changed, with what they held before. */
  async settle(call: ToolCall): Promise<FileChange[]> {
    this.seen(call);
    const changes: FileChange[] = [];
    for (const [path, told] of this.befores.get(call.toolCallId) ?? []) {
      let before = told;
      const after = await this.read(path);
      if (before === undefined || after === undefined) continue;
      // Read too late, or while the agent was writing (a truncated file): the diff says what was there.
      if (before === after || !holdsOldText(call, this.absolute(path), before)) before = rebuilt(call, this.absolute(path), after);
      if (before !== after && before !== undefined) changes.push({ path, before });
    }
    return changes;
  }

  /** The workspace paths a call names: its locations, its diffs' paths, its input's path fields. */
  private paths(call: ToolCall | ToolCallUpdate): string[] {
    const named: unknown[] = [
      ...(call.locations ?? []).map((l) => l.path),
      ...(call.content ?? []).map((c) => c.type === 'diff' && c.path),
    ];
    const input = callArguments(call.rawInput);
    named.push(input.path, input.filePath, input.file_path);
    if (Array.isArray(input.edits))
      named.push(...input.edits.map((e) => (e && typeof e === 'object' ? (e as { path?: unknown }).path : undefined)));
    const paths = new Set<string>();
    for (const name of named) {
      if (typeof name !== 'string' || name === '') continue;
      const path = relative(this.root, resolve(this.root, name));
      if (path && !path.startsWith('..') && !isAbsolute(path)) paths.add(path.split(sep).join('/'));
    }
    return [...paths];
  }

  private absolute(path: string): string {
    return resolve(this.root, path);
  }

  /** The file's text; null when it does not exist; undefined when it cannot be reviewed (too large, not text, unreadable). */
  private async read(path: string): Promise<Before> {
    try {
      return text(await readFile(this.absolute(path)));
    } catch (error) {
      return missing(error);
    }
  }

  /**
   * The same, at once: an agent may write as soon as its call is told of (a new file once the person
   * allowed it), and a read in the thread pool could come after that. At most MAX_FILES files of at
   * most MAX_BYTES each, so this stays a few milliseconds at worst.
   */
  private readNow(path: string): Before {
    try {
      const absolute = this.absolute(path);
      return statSync(absolute).size > MAX_BYTES ? undefined : text(readFileSync(absolute));
    } catch (error) {
      return missing(error);
    }
  }
}

function text(bytes: Buffer): Before {
  return bytes.length > MAX_BYTES || bytes.includes(0) ? undefined : bytes.toString('utf8');
}

function missing(error: unknown): Before {
  return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
}

function diffOf(call: ToolCall, absolute: string) {
  const diff = (call.content ?? []).find((c) => c.type === 'diff' && resolve(c.path) === absolute);
  return diff?.type === 'diff' ? diff : undefined;
}

/** Whether the file as read holds the call's diff's old text, where the diff has one. */
function holdsOldText(call: ToolCall, absolute: string, before: string | null): boolean {
  const old = diffOf(call, absolute)?.oldText;
  return !old || (before !== null && before.includes(old));
}

/**
 * The file before the call, read too late: from its diff's new text put back to the old, where that
 * is certain (the new text once in the file); undefined where it is not (a whole-file write); the
 * file as it is where the call shows no diff for it (it did not change).
 */
function rebuilt(call: ToolCall, absolute: string, after: string | null): Before {
  const diff = diffOf(call, absolute);
  if (!diff) return after;
  if (after === null || diff.oldText === null || diff.oldText === undefined) return undefined;
  const at = after.indexOf(diff.newText);
  if (diff.newText === '' || at < 0 || after.indexOf(diff.newText, at + 1) >= 0) return undefined;
  return after.slice(0, at) + diff.oldText + after.slice(at + diff.newText.length);
}
