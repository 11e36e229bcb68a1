/**
 * Dangerous shell command detection for `openspace.terminal.send` (REQ NFR-3.6.3, TECHSPEC §17.3).
 *
 * The text an agent wants to type into a terminal is parsed with a real Bash parser (`unbash`: a
 * typed, zero-dependency, synchronous TypeScript parser; browser-safe, no WASM, no Node built-ins)
 * and every command in the tree is checked: pipelines, lists (`;` `&&` `||` newlines), subshells,
 * groups, command and process substitutions (also inside quotes, parameter expansions, arithmetic,
 * here-documents), function bodies and every compound command. Wrappers are peeled (`sudo`, `env`,
 * `command`, `exec`, `nohup`, `time`, `nice`, `timeout`, `xargs`, `busybox`, `find -exec`, …),
 * option clusters are normalised (`-rf` = `-fr` = `-r -f` = `--recursive --force` = `--rec --f`),
 * brace expansion is applied (`{rm,-rf,/}`), and code carried in strings is parsed and checked
 * in turn (`sh -c`, `bash -c`, `eval`, `su -c`, `env -S`, `ssh host CMD`, `watch`, `alias`,
 * `trap`, `PROMPT_COMMAND=`, `echo … | sh`, here-documents and here-strings fed to a shell).
 *
 * It fails CLOSED: text that does not parse, is incomplete (a trailing `\`, an unterminated
 * here-document), contains terminal control characters, is nested too deeply, or runs a command
 * whose name is only known at run time (`$(echo rm) -rf /`, `$CMD`, `/bin/r?`) is reported as
 * dangerous. See `src/security/corpus/README.md` for the rules table and the decisions behind it.
 *
 * The rule list is data (`DANGER_RULES` in rules.ts); the matching logic lives beside it:
 * - check.ts: the entry points, the walk over the tree, and checks on assignments, words, functions;
 * - commands.ts: one simple command, checked by its name (wrappers with code in strings, kill, git);
 * - commands-files.ts: rm, chmod, cp/mv/…, sed -i, redirections and tee;
 * - commands-code.ts: code run by a shell or interpreter, downloaded, or piped into a shell;
 * - context.ts: the reasons found so far and the state a check carries through the tree;
 * - words.ts, options.ts, paths.ts, wrappers.ts: arguments and brace expansion, getopt-style option
 *   parsing, where a path points, and peeling `sudo`/`env`/`xargs`/… to the command that runs.
 */
export { checkCommand, checkCommandSync, formatConfirmation } from './check.js';
export { DANGER_RULES, MAX_COMMAND_LENGTH, MAX_PAYLOAD_DEPTH } from './rules.js';
export type { CheckOptions, CheckResult, DangerReason, DangerRule, RuleId } from './rules.js';
export { expandBraces } from './words.js';
