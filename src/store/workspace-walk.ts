/**
 * Walking a workspace directory as the file tools list and search it (src/store/workspace-files.ts):
 * entries in explorer or path order, .gitignore rules from every level above, `.git` left out.
 */
import type nodePath from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { WorkspaceFs } from './workspace-files.js';
import type { StatsLike } from './file-access.js';
import { compareNames, type GitignoreText } from './workspace-search.js';

export const joinRel = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface Entry {
  rel: string;
  name: string;
  abs: string;
  type: EntryType;
  size: number;
}

/** One .gitignore: the directory it sits in (workspace-relative), its text and its rules. */
interface IgnoreLevel extends GitignoreText {
  rules: Ignore;
}

type Order = 'explorer' | 'path';

export function compareExplorer(a: Entry, b: Entry): number {
  const dirA = a.type === 'directory' ? 0 : 1;
  const dirB = b.type === 'directory' ? 0 : 1;
  if (dirA !== dirB) return dirA - dirB;
  const la = a.name.toLowerCase();
  const lb = b.name.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : compareNames(a.name, b.name);
}

export class WorkspaceWalk {
  constructor(
    private readonly fs: WorkspaceFs,
    private readonly p: nodePath.PlatformPath,
    private readonly root: () => string,
  ) {}

  async readEntries(dirAbs: string, dirRel: string): Promise<Entry[]> {
    const names = (await this.fs.readdir(dirAbs)).map((n) => String(n));
    const entries = await Promise.all(
      names.map(async (name): Promise<Entry | undefined> => {
        const abs = this.p.join(dirAbs, name);
        let st: StatsLike;
        try {
          st = await this.fs.lstat(abs);
        } catch {
          return undefined; // vanished meanwhile
        }
        const type: EntryType = st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
        return { rel: joinRel(dirRel, name), name, abs, type, size: Number(st.size) };
      }),
    );
    return entries.filter((e): e is Entry => e !== undefined);
  }

  /** The directory's .gitignore, if it has one that is a regular file. */
  private async loadLevel(dirAbs: string, dirRel: string): Promise<IgnoreLevel | undefined> {
    const file = this.p.join(dirAbs, '.gitignore');
    try {
      if (!(await this.fs.lstat(file)).isFile()) return undefined;
      const text = Buffer.from(await this.fs.readFile(file)).toString('utf8');
      return { base: dirRel, text, rules: ignore({ allowRelativePaths: true }).add(text) };
    } catch {
      return undefined;
    }
  }

  private static ignored(levels: IgnoreLevel[], rel: string, isDir: boolean): boolean {
    let ignored = false;
    for (const level of levels) {
      const sub = level.base === '' ? rel : rel.slice(level.base.length + 1);
      const result = level.rules.test(isDir ? `${sub}/` : sub);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /**
   * The ignore levels that apply inside directory `rel`: the .gitignore files of the root and of every
   * directory down to `rel` itself. Undefined when `rel` itself is ignored or inside .git (an ignored
   * directory has nothing to walk, as in git).
   */
  async ancestorLevels(rel: string): Promise<IgnoreLevel[] | undefined> {
    const levels: IgnoreLevel[] = [];
    const parts = rel === '' ? [] : rel.split('/');
    for (let i = 0; i <= parts.length; i++) {
      const dirRel = parts.slice(0, i).join('/');
      if (i > 0 && (parts[i - 1] === '.git' || WorkspaceWalk.ignored(levels, dirRel, true))) return undefined;
      const level = await this.loadLevel(this.p.join(this.root(), ...parts.slice(0, i)), dirRel);
      if (level) levels.push(level);
    }
    return levels;
  }

  /** Depth-first, pre-order; skips .git and what .gitignore files ignore; never follows symlinks. */
  async *walk(dir: { rel: string; abs: string }, levels: IgnoreLevel[], order: Order): AsyncGenerator<Entry> {
    const entries = await this.readEntries(dir.abs, dir.rel).catch(() => [] as Entry[]);
    entries.sort(order === 'explorer' ? compareExplorer : (a, b) => compareNames(a.name, b.name));
    for (const e of entries) {
      if (e.name === '.git' || e.type === 'other') continue;
      if (WorkspaceWalk.ignored(levels, e.rel, e.type === 'directory')) continue;
      yield e;
      if (e.type === 'directory') {
        const level = await this.loadLevel(e.abs, e.rel);
        yield* this.walk(e, level ? [...levels, level] : levels, order);
      }
    }
  }
}
