import { familyOf, type ToolDefinition } from '../contract/index.js';
import type { Command, NodeCommand } from '../commands/command.js';
import type { Describe } from './phrases.js';

/** A tool to use instead of what an agent would do without it, and why: the instructions and `openspace init`'s section say it. */
export interface Preference {
  use: string;
  insteadOf: string;
  why: string;
}

/**
 * A family: the tools of one kind of thing the IDE shows or keeps (panes, editors, terminals …),
 * everything the IDE serves for them, in one folder (src/families/<family>/) and one entry of the
 * registration list (src/families/index.ts). The catalog, the commands, the chat's lines, the
 * instructions and `openspace.tools.enable` all come from here.
 */
export interface Family<T extends readonly ToolDefinition[] = readonly ToolDefinition[]> {
  /** The folder's name. */
  name: string;
  /**
   * One line per catalog family it serves (a tool name's second part: `openspace.symbols.search` is
   * in `symbols`), which openspace.tools.enable shows.
   */
  summaries: Record<string, string>;
  tools: T;
  /**
   * One implementation per tool, written against the IDE port. Where each runs on an IDE with a
   * window and a backend (Theia) is how it was defined: with defineCommand, in the window, beside
   * the layout, the editors and the widgets; with defineNodeCommand, beside the files, the store,
   * the language servers and git, next to the hub — written against NodeIde, so the compiler holds
   * it to what the backend has. A family may have both (a board's shapes are a file's content; its
   * camera is the view's).
   */
  commands: readonly (Command | NodeCommand)[];
  /** How a call of each tool reads in the chat ("opened src/auth.ts:42"): one missing does not compile. */
  phrases: { readonly [K in T[number]['name']]: Describe };
  preferences?: readonly Preference[];
}

/** A family, checked: every tool has exactly one command and a summary for its catalog family, and no command serves a tool of another. */
export function defineFamily<const T extends readonly ToolDefinition[]>(family: Family<T>): Family<T> {
  const names = new Set(family.tools.map((t) => t.name));
  const served = family.commands.map((c: { tool: ToolDefinition }) => c.tool.name);
  const problems = [
    ...[...names].filter((n) => served.filter((s) => s === n).length !== 1).map((n) => `${n} needs exactly one command`),
    ...served.filter((s) => !names.has(s)).map((s) => `a command serves ${s}, which is not among its tools`),
    ...family.tools.filter((t) => !family.summaries[familyOf(t.name)]).map((t) => `${t.name}'s family has no summary`),
  ];
  if (problems.length > 0) throw new Error(`The ${family.name} family: ${problems.join('; ')}`);
  return family;
}
