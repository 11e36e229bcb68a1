/**
 * One session's view of the catalog (src/contract/tools.ts): the core tools and openspace.tools.enable
 * from the start, and each family in full once the agent enables it or calls one of its tools.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  ALL_FAMILIES,
  annotations,
  familiesOf,
  familyOf,
  inputJsonSchema,
  outputJsonSchema,
  type ToolDefinition,
} from '../contract/index.js';
import { TOOLS, TOOLS_BY_NAME, TOOLS_ENABLE } from '../families/index.js';

let definitions: Tool[] | undefined;

/** Every tool's definition as tools/list gives it, openspace.tools.enable first; made once per process. */
export function toolDefinitions(): Tool[] {
  definitions ??= [TOOLS_ENABLE, ...TOOLS].map((def: ToolDefinition) => ({
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: inputJsonSchema(def),
    outputSchema: outputJsonSchema(def),
    annotations: annotations(def),
  }));
  return definitions;
}

/** The tools a session lists before it enables anything. */
const STARTING = new Set<string>([TOOLS_ENABLE.name, ...TOOLS.filter((t) => t.core).map((t) => t.name)]);

export class SessionCatalog {
  private readonly families = new Set<string>();

  /** What tools/list answers now. */
  list(): Tool[] {
    return toolDefinitions().filter((t) => STARTING.has(t.name) || this.families.has(familyOf(t.name)));
  }

  /** List `families` in full ("all": every one); the tools this added, and every family now listed. */
  enable(families: string[]): { enabled: string[]; added: string[] } {
    const before = new Set(this.list().map((t) => t.name));
    for (const family of families.includes(ALL_FAMILIES) ? familiesOf(TOOLS) : families) this.families.add(family);
    const added = this.list()
      .map((t) => t.name)
      .filter((name) => !before.has(name));
    return { enabled: familiesOf(TOOLS).filter((f) => this.families.has(f)), added };
  }

  /**
   * A tool called by name lists its family, so the agent sees the schemas of what it uses; true when
   * that changed the list.
   */
  used(toolName: string): boolean {
    const family = familyOf(toolName);
    return !this.families.has(family) && TOOLS_BY_NAME.has(toolName) && this.enable([family]).added.length > 0;
  }
}
