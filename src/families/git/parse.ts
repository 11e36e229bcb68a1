/** What git prints, read: `status --porcelain=v2 -z`, `diff --numstat -z` and unified diffs. */
import type { GitStatusInfo } from './port.js';
import type { FileDiff, GitChange, Hunk } from './tools.js';

const KINDS: Record<string, GitChange['status']> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type-changed',
  U: 'conflicted',
};

/** `git status --porcelain=v2 -z --branch`, paths made relative to the workspace (`prefix` is its place in the repository). */
export function parseStatus(out: string, prefix: string): Omit<GitStatusInfo, 'operation'> {
  const info: Omit<GitStatusInfo, 'operation'> = { branch: null, head: null, staged: [], unstaged: [], untracked: [], conflicted: [] };
  const local = (path: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : undefined);
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i]!;
    if (entry.startsWith('# ')) {
      const [, key, ...rest] = entry.split(' ');
      const value = rest.join(' ');
      if (key === 'branch.oid') info.head = value === '(initial)' ? null : value;
      else if (key === 'branch.head') info.branch = value === '(detached)' ? null : value;
      else if (key === 'branch.upstream') info.upstream = value;
      else if (key === 'branch.ab') {
        const [, ahead, behind] = /^\+(\d+) -(\d+)$/.exec(value) ?? [];
        info.ahead = Number(ahead ?? 0);
        info.behind = Number(behind ?? 0);
      }
      continue;
    }
    const type = entry[0];
    if (type === '?') {
      const path = local(entry.slice(2));
      if (path !== undefined) info.untracked.push(path);
    } else if (type === 'u') {
      const path = local(entry.split(' ').slice(10).join(' '));
      if (path !== undefined) info.conflicted.push(path);
    } else if (type === '1' || type === '2') {
      const parts = entry.split(' ');
      const xy = parts[1]!;
      const path = local(parts.slice(type === '1' ? 8 : 9).join(' '));
      const oldPath = type === '2' ? local(fields[++i]!) : undefined;
      if (path === undefined) continue;
      if (xy[0] !== '.') info.staged.push({ path, status: KINDS[xy[0]!] ?? 'modified', ...(oldPath !== undefined ? { oldPath } : {}) });
      if (xy[1] !== '.') info.unstaged.push({ path, status: KINDS[xy[1]!] ?? 'modified' });
    }
  }
  return info;
}

/** `git diff --numstat -z`: lines added and removed by path (none for a binary file). */
export function parseNumstat(out: string): Map<string, { added?: number; removed?: number }> {
  const counts = new Map<string, { added?: number; removed?: number }>();
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const [added, removed, path] = fields[i]!.split('\t');
    if (removed === undefined) continue;
    // A rename: the path is empty here; the old and new paths follow.
    const name = path === '' ? ((i += 2), fields[i]!) : path!;
    counts.set(name, added === '-' ? {} : { added: Number(added), removed: Number(removed) });
  }
  return counts;
}

/** Undo git's C-style quoting of a path with unusual characters ("a\tb" → a<TAB>b, "\303\244" → ä). */
export function unquote(path: string): string {
  if (!path.startsWith('"')) return path;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  const body = path.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = body[++i]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(escapes[next] ?? next.charCodeAt(0));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** A unified diff (`git diff`, no color, no prefix changes), each hunk given its ID by `idOf(path, its text)`. */
export function parseDiff(out: string, idOf: (path: string, text: string) => string): FileDiff[] {
  const files: FileDiff[] = [];
  const lines = out.split('\n');
  let file: FileDiff | undefined;
  let hunk: Hunk | undefined;
  const close = () => {
    if (hunk && file) file.hunks.push({ ...hunk, id: idOf(file.path, `${hunk.header}\n${hunk.lines.join('\n')}`) });
    hunk = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('diff --git ')) {
      close();
      file = { path: samePath(line.slice(11)), status: 'modified', hunks: [] };
      files.push(file);
    } else if (!file) {
      continue;
    } else if (hunk && /^[ +\-\\]/.test(line)) {
      hunk.lines.push(line);
    } else if (line.startsWith('@@ ')) {
      close();
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!m) continue;
      hunk = {
        id: '',
        header: line,
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
    } else if (line.startsWith('new file mode')) file.status = 'added';
    else if (line.startsWith('deleted file mode')) file.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      file.oldPath = unquote(line.slice(12));
      file.status = 'renamed';
    } else if (line.startsWith('rename to ')) file.path = unquote(line.slice(10));
    else if (line.startsWith('copy from ')) {
      file.oldPath = unquote(line.slice(10));
      file.status = 'copied';
    } else if (line.startsWith('copy to ')) file.path = unquote(line.slice(8));
    else if (line.startsWith('Binary files ')) file.binary = true;
    else if (line.startsWith('+++ ') && line !== '+++ /dev/null') file.path = unquote(line.slice(4)).replace(/^b\//, '');
  }
  close();
  return files.map((f) => dropUndefined(f.oldPath === f.path ? { ...f, oldPath: undefined } : f));
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The path of `a/P b/P` (same path on both sides; a rename names its paths on lines of their own). */
function samePath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = rest.indexOf('" ', 1);
    return unquote(rest.slice(0, end + 1)).replace(/^a\//, '');
  }
  return rest.slice(2, 2 + (rest.length - 5) / 2);
}

/**
 * A file's text with these hunks (of the diff from the index to it) taken back: each hunk's new
 * side must stand where the hunk says, else undefined (the file changed since the diff).
 */
export function revertHunks(text: string, hunks: Hunk[]): string | undefined {
  const lines = text.split('\n');
  let endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  for (const hunk of [...hunks].sort((a, b) => b.newStart - a.newStart)) {
    const oldSide: string[] = [];
    const newSide: string[] = [];
    let oldNoEol = false;
    let newNoEol = false;
    let last = ' ';
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) {
        if (last !== '+') oldNoEol = true;
        if (last !== '-') newNoEol = true;
        continue;
      }
      last = line[0]!;
      if (last !== '+') oldSide.push(line.slice(1));
      if (last !== '-') newSide.push(line.slice(1));
    }
    // A hunk that adds to an empty side starts after the line it names.
    const start = hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1;
    if (newSide.some((l, i) => lines[start + i] !== l)) return undefined;
    const atEnd = start + newSide.length === lines.length;
    if (atEnd && newNoEol === endsWithNewline && newSide.length > 0) return undefined;
    lines.splice(start, newSide.length, ...oldSide);
    if (atEnd) endsWithNewline = lines.length > 0 && !oldNoEol;
  }
  return lines.join('\n') + (endsWithNewline ? '\n' : '');
}

/** A diff as a person reads it in a confirmation; a sensitive file's lines stay withheld (the question may reach the agent's side). */
export function renderDiffText(files: FileDiff[], truncated: boolean): string {
  const text = files
    .map((f) => {
      const title = `${f.status} ${f.oldPath ? `${f.oldPath} → ` : ''}${f.path}`;
      if (f.withheld) return `${title} (a sensitive file: its lines are not shown)`;
      if (f.binary) return `${title} (binary)`;
      return [title, ...f.hunks.map((h) => `${h.header}\n${h.lines.join('\n')}`)].join('\n');
    })
    .join('\n\n');
  return truncated ? `${text}\n\n(more changes not shown)` : text;
}

/** The file a hunk ID names: IDs are `<path>#<8 hex digits>` (repository.ts makes them). */
export function hunkPath(id: string): string {
  return id.replace(/#[0-9a-f]{8}$/, '');
}
