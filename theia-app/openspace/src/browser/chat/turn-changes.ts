/**
 * A turn's changes as "Review changes" shows them: each file with its text before the turn. An ACP
 * agent's calls say it; OpenCode's edits give their unified diffs, which are undone here, last
 * first, on the file as it is now. A file whose diffs no longer undo (it changed since) is left out.
 */
import { applyPatch, parsePatch, reversePatch } from 'diff';
import type { FileChange, TurnChange } from '../../common/chat-protocol.js';

export async function filesBefore(
  changes: readonly TurnChange[],
  read: (path: string) => Promise<string | null>,
): Promise<{ files: FileChange[]; changedSince: string[] }> {
  const files: FileChange[] = [];
  const changedSince: string[] = [];
  for (const change of changes) {
    if ('before' in change) {
      files.push(change);
      continue;
    }
    let text: string | false | null = await read(change.path);
    for (const patch of [...change.patches].reverse()) {
      if (text === null || text === false) break;
      text = parsePatch(patch).reduce<string | false>((t, p) => (t === false ? false : applyPatch(t, reversePatch(p))), text);
    }
    if (typeof text === 'string') files.push({ path: change.path, before: text });
    else changedSince.push(change.path);
  }
  return { files, changedSince };
}
