/**
 * Workspace paths whose contents run as code later, outside any sandbox: git's hooks and config
 * (`core.fsmonitor`, `core.hooksPath`, aliases and pagers run on the person's next `git status`),
 * editor tasks that run when a folder opens, direnv, npm's `script-shell`, husky's hooks, CI
 * workflows and dev containers. Agent terminals see them read-only (src/security/sandbox.ts), and
 * the file tools refuse to write them (src/security/file-policy.ts). Browser-safe.
 */

/** Workspace-relative paths (directories and files) bound read-only in the sandbox, whether or not they exist yet. */
export const CODE_RUNNING_PATHS: readonly string[] = Object.freeze([
  '.git/hooks',
  '.git/config',
  '.vscode',
  '.theia',
  '.openspace',
  '.envrc',
  '.npmrc',
  '.husky',
  '.github/workflows',
  '.devcontainer',
]);

/** The same as file-policy patterns (any depth: a nested project's `.husky/` runs too). */
export const CODE_RUNNING_PATTERNS: readonly string[] = Object.freeze([
  '.git/hooks/**',
  '.git/config',
  '.vscode/**',
  '.theia/**',
  '.openspace/**',
  '.envrc',
  '.npmrc',
  '.husky/**',
  '.github/workflows/**',
  '.devcontainer/**',
]);
