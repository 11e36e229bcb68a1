/**
 * Known-safe commands for `openspace.terminal.send` (issue 17): text typed into a terminal runs
 * without a confirmation only when it is known to be safe. Everything else asks, and says why.
 *
 * The text is parsed with `unbash` and first goes through the danger check
 * (`../dangerous-commands`), which keeps refusing what it refuses (parse errors, control
 * characters, history expansion, names built at run time) and whose reasons explain the dialog.
 * Then every simple command in the tree (pipelines, lists, substitutions, subshells, compound
 * commands) must match a known-safe rule or a rule the person remembered with "Always allow".
 * Browser-safe: no Node built-ins.
 *
 * - assess.ts: the entry point, the walk, redirections, assignments, harmless wrappers, allow rules
 *   and the suggested rule;
 * - safe-commands.ts: the known-safe programs and their argument rules, as data; the toolchains'
 *   (git, package managers, build tools, containers, clusters) in safe-toolchains.ts, the rule's
 *   shape in safe-rule.ts;
 * - match.ts: matching one command against that data;
 * - explain.ts: the reasons for commands that ask when a reason more specific than "not known to
 *   be safe" applies (inline programs, wrappers, credentials, uploads, infrastructure, databases);
 * - paths.ts: where a path argument points (workspace, outside, credentials, protected);
 * - rules.ts: the explanation rules as data and the result's shape.
 */
export { assessCommand, isRememberable } from './assess.js';
export { EXPLAIN_RULES } from './rules.js';
export type { Assessment, AssessOptions, ExplainRule, ExplainRuleId, Reason } from './rules.js';
