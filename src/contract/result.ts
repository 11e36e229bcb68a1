import { z } from 'zod';

/**
 * Every error code a tool can answer, in one place. An agent branches on `code`;
 * `error` says in words what happened and what to do next.
 */
export const ERROR_CODES = {
  INVALID_ARGUMENT: "The arguments do not match the tool's input schema, or are contradictory; the message names the fields.",
  UNKNOWN_TOOL: 'The tool name is not an openspace.* tool this hub serves.',
  FILE_NOT_FOUND: 'No file or directory exists at the path.',
  NOT_A_FILE: 'The path names a directory or something else that is not a regular file.',
  NOT_A_DIRECTORY: 'The path names a file where a directory was expected.',
  BINARY_FILE: 'The file holds binary data, not text.',
  FILE_TOO_LARGE: 'The file is larger than a tool may read at once; read a line range instead.',
  SENSITIVE_FILE: 'The file matches a sensitive-file pattern (keys, credentials, .env, .git); agents may not read it.',
  PROTECTED_PATH:
    'The path is protected from agent writes (.git, node_modules, .theia, .openspace, and code that runs later: .vscode, .husky, .github/workflows, .devcontainer, .envrc, .npmrc).',
  PATH_OUTSIDE_WORKSPACE: 'The path, after resolving `..` and symlinks, lies outside the workspace root.',
  NO_WORKSPACE:
    'No folder is open in the IDE, so there are no workspace files or paths; ask the person to open one (File → Open Folder), then retry.',
  PANE_NOT_FOUND: 'No pane or content with that ID is open.',
  EDITOR_NOT_OPEN: 'The file is not open in an editor; open it with openspace.editor.open first.',
  DIRTY_BUFFER: "The editor holds unsaved changes (a person's, or an editor.replace_range not yet saved); pass force:true to discard them.",
  HIGHLIGHT_NOT_FOUND: 'No highlight with that ID exists (it may have been cleared by a person pressing Escape).',
  RANGE_INVALID:
    'A line or column range lies outside the file or ends before it starts; or patch operations overlap, or a replace_text anchor does not occur exactly once.',
  CONFLICT:
    'The file changed since the version the call was based on (baseVersion); currentVersion says what it is now: read it again and redo the change.',
  NO_MATCHES:
    'The search found nothing to replace (with the ignore and sensitive-file rules of openspace.file.search); nothing was proposed.',
  PROPOSAL_NOT_FOUND: 'No edit proposal has that ID (the IDE keeps the pending ones and the last 100 decided); propose the change again.',
  SNAPSHOT_NOT_FOUND: 'No kept snapshot of the file has that version; openspace.file.snapshots lists them.',
  ALREADY_EXISTS: 'A file already exists at the path; the tool creates new files only (change an existing one with its update tools).',
  SLIDE_NOT_FOUND: 'The deck has no slide at that index (slides count from 0); the message gives the slide count.',
  SHAPE_NOT_FOUND: 'The whiteboard has no shape with that ID; openspace.whiteboard.read lists them.',
  INVALID_FILE: 'The file is not in the format the tool reads (a whiteboard that is not an Excalidraw scene); the message says where.',
  LSP_NOT_READY: 'The language server for the file is still starting (or loading the project); retry after retryAfterMs.',
  LANGUAGE_NOT_SUPPORTED: 'No language server handles files of this type; the message names the servers there are and how to add one.',
  SYMBOL_NOT_FOUND: 'No symbol of that name is declared in the workspace; the message lists near names, or use openspace.symbols.search.',
  TERMINAL_NOT_FOUND: 'No terminal has that ID or title.',
  TERMINAL_EXITED: "The terminal's process has exited; create a new terminal.",
  TERMINAL_BUSY:
    'A command still runs in the terminal (terminal.run waits for a prompt); read it with read_output, stop it with Ctrl-C, or use another terminal.',
  SHELL_INTEGRATION_UNAVAILABLE:
    "The terminal's shell does not report where commands start and end (no shell integration): use terminal.send and read_output there, or terminal.run without terminalId.",
  CONFIRMATION_REQUIRED:
    'The terminal command (or git commit or discard) needs a person to confirm it, which this IDE cannot ask; nothing was done.',
  CONFIRMATION_DENIED:
    'A person was asked to confirm the terminal command (or git commit or discard) and refused, or did not answer; nothing was done.',
  SANDBOX_READ_ONLY:
    'The terminal command writes a path the sandbox keeps read-only (git hooks and config, editor tasks, …: code there runs outside the sandbox later); nothing was sent. The person can run it in their own terminal.',
  CONSENT_REQUIRED: 'A person has not yet allowed agents to run commands in this workspace; nothing was done.',
  NOT_A_REPOSITORY: 'The workspace is not in a git repository (the in-memory demo workspace is in none).',
  HUNK_NOT_FOUND:
    'No hunk has that ID now (the file changed, or the hunk was staged, unstaged or discarded); ask openspace.git.diff again.',
  NOTHING_TO_COMMIT: 'Nothing is staged; stage changes with openspace.git.stage first.',
  MERGE_CONFLICT: 'A merge, rebase or cherry-pick left conflicts in these files: resolve them and stage the files first.',
  GIT_FAILED: 'git refused or failed; the message is what it said.',
  NO_TEST_RUNNER:
    'No test runner the tool knows (Vitest, Jest, node --test, pytest) is used by the workspace or the path, or it is not installed; the message says which and how to install it.',
  TEST_NOT_FOUND: 'No test has that name, or no test starts at or above that line; openspace.test.discover lists them.',
  TEST_RUN_BUSY: 'A test run or discovery is in progress (one at a time): wait for it, or stop it with openspace.test.cancel.',
  TEST_RUN_FAILED:
    'The test runner ended without reporting any test (its configuration failed to load, it crashed); the message is what it said.',
  TASK_NOT_FOUND: "The workspace's package.json has no script of that name (or there is none); the message lists the scripts.",
  NO_TEST_RESULTS: 'No test has run since the IDE started; run them with openspace.test.run.',
  NO_DEBUGGER:
    "No debugger for the program's language is installed (Python: debugpy, python3-debugpy on Debian; C: LLDB's lldb-vscode or lldb-dap), or it would not start; the message says which.",
  DEBUG_SESSION_NOT_FOUND:
    'No debug session has that ID (it was stopped, or its program exited and was stopped); the message lists those running.',
  DEBUG_NOT_STOPPED:
    'The program is running (or has exited): stacks, variables and steps need it stopped; wait with openspace.debug.wait or pause it.',
  BREAKPOINT_NOT_FOUND: 'No breakpoint has that ID; openspace.debug.breakpoint.list lists them.',
  VARIABLE_NOT_FOUND: 'No variable or scope by that name or path in the frame; openspace.debug.variables lists them.',
  DEBUG_FAILED: 'The debugger refused the request or the expression failed; the message is what it said.',
  RATE_LIMITED: 'Too many tool calls: at most 10 waiting per session, at most 50 per agent turn; wait, then retry.',
  BRIDGE_UNAVAILABLE: 'No IDE is connected to the hub; start the IDE or the simulated IDE.',
  TIMEOUT: 'The IDE did not answer within the time limit.',
  INTERNAL: 'An unexpected failure inside OpenSpace; the message has details.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

export interface Failure {
  success: false;
  error: string;
  code: ErrorCode;
  [extra: string]: unknown;
}

/** What running a tool answers, wherever it runs (a command in an IDE, the bridge, the hub): its output with success, or a Failure. */
export type ToolResult = ({ success: true } & Record<string, unknown>) | Failure;

export const FailureSchema = z
  .object({
    success: z.literal(false),
    error: z.string().describe('What went wrong, in words an agent can act on.'),
    code: ErrorCodeSchema,
  })
  .passthrough();

/** A failure a command throws; the hub and the bridges turn it into a Failure result. */
export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }

  toResult(): Failure {
    return { ...this.details, success: false, error: this.message, code: this.code };
  }
}

export function failure(code: ErrorCode, error: string, details: Record<string, unknown> = {}): Failure {
  return { ...details, success: false, error, code };
}

/** Turns anything thrown into a Failure, keeping ToolError codes and calling the rest INTERNAL. */
export function toFailure(err: unknown): Failure {
  if (err instanceof ToolError) return err.toResult();
  const message = err instanceof Error ? err.message : String(err);
  return failure('INTERNAL', `Internal error: ${message}`);
}
