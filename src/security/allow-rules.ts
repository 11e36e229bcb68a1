/**
 * The person's "always allow" rules for agents' terminal commands, as their own settings list them
 * (Theia's user setting openspace.security.allowedCommands, the simulated IDE's user-level file):
 * one string per rule, `npm run build (in /home/me/project)` for one workspace, or a bare
 * `npm run build` that holds in every workspace. A person reads, adds and removes them by hand too.
 */

const ENTRY = /^(.*\S)\s+\(in (.+)\)$/;

/** The entry that remembers `rule` for `workspace`. */
export function allowEntry(rule: string, workspace: string): string {
  return `${rule} (in ${workspace})`;
}

/** The rules of `entries` that hold in `workspace`, without duplicates. */
/** `entries` (a value as stored) with `rule` remembered for `workspace`; undefined when it already holds there. */
export function withAllowEntry(entries: unknown, rule: string, workspace: string): unknown[] | undefined {
  const list: unknown[] = Array.isArray(entries) ? entries : [];
  return allowRulesFor(list, workspace).includes(rule) ? undefined : [...list, allowEntry(rule, workspace)];
}

export function allowRulesFor(entries: readonly unknown[], workspace: string): string[] {
  const rules = new Set<string>();
  for (const entry of entries) {
    if (typeof entry !== 'string' || !entry.trim()) continue;
    const scoped = ENTRY.exec(entry.trim());
    if (!scoped) rules.add(entry.trim());
    else if (scoped[2] === workspace) rules.add(scoped[1]!);
  }
  return [...rules];
}
