import { z } from 'zod';
import { TerminalInfo, WorkspacePath } from '../../contract/common.js';
import { defineTool } from '../../contract/tool.js';

const TerminalRef = z.string().min(1).max(200).describe('Terminal ID from openspace.terminal.create, or its title');

export const terminalCreate = defineTool({
  name: 'openspace.terminal.create',
  title: 'Create Terminal',
  description:
    'Open a new terminal in the bottom panel. Its ID is derived from the title ("test-runner" → "test-runner"), ' +
    'and every terminal tool accepts the title in place of the ID. Where it says sandboxed:true its shell may change only the ' +
    "workspace and a /tmp of its own, and cannot read the person's credentials (~/.ssh, ~/.aws …).",
  input: z.strictObject({
    title: z.string().min(1).max(100).optional().describe('Tab title, e.g. "test-runner"'),
    cwd: WorkspacePath.optional().describe('Working directory inside the workspace; defaults to the root'),
    shellPath: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe("Absolute path of a shell (bash, sh, zsh, fish, …); defaults to the IDE's shell"),
  }),
  output: z.object({
    terminalId: z.string(),
    title: z.string(),
    cwd: z.string(),
    sandboxed: z.boolean().describe('Whether its shell runs in the sandbox (see openspace.terminal.list)'),
  }),
  // Complex since issue 28 (NFR-3.2.1 names "open file, highlight" simple): it starts a process tree
  // in new namespaces (bwrap, the network forwarder, the shell; some 50 ms of CPU here) beside
  // Theia's xterm widget with its WebGL renderer. On Theia here: p50 48–56, p99 82–133 ms.
  budget: 'complex',
  effect: 'write',
  session: { creates: (r) => [{ kind: 'terminal', id: r.terminalId }] },
});

export const terminalSend = defineTool({
  name: 'openspace.terminal.send',
  core: true,
  title: 'Send Text to Terminal',
  description:
    'Type text into a terminal. A newline is added to run it unless the text already ends with one or enter is false ' +
    '(use enter:false for keystrokes such as "\\u0003" for Ctrl-C). Read what it printed with openspace.terminal.read_output. ' +
    'Commands not known to be safe (anything but reading, building, testing and the like: rm -r, sudo, curl | sh, git push, python -c …) wait for the person to allow them (CONFIRMATION_DENIED if not, CONFIRMATION_REQUIRED where no one can be asked); the error says why it asked.',
  input: z.strictObject({
    terminalId: TerminalRef,
    text: z.string().max(100_000),
    enter: z.boolean().optional().describe('Press Enter after the text (default true)'),
  }),
  output: z.object({
    terminalId: z.string(),
    cursor: z.number().int().describe('Output cursor before the text was sent; pass it as since to read only what follows'),
  }),
  budget: 'simple',
  effect: 'destructive',
  session: {},
});

const LastCommand = z.object({
  exitCode: z.number().int().optional(),
  durationMs: z.number().optional(),
  finishedAt: z.string().describe('ISO time'),
});

export const terminalReadOutput = defineTool({
  name: 'openspace.terminal.read_output',
  core: true,
  title: 'Read Terminal Output',
  description:
    "Read a terminal's output as lines, with escape sequences removed. Without since: the last `lines` lines (default 100). " +
    'With since (a cursor from an earlier read or send): the lines printed after it, oldest first, at most `lines`; ' +
    'pass the returned cursor next time to read on without gaps or repeats. `partial` is the unfinished last line, such as a prompt.',
  input: z.strictObject({
    terminalId: TerminalRef,
    lines: z.number().int().min(1).max(10_000).optional().describe('Maximum lines to return (default 100)'),
    since: z.number().int().min(0).optional().describe('Cursor returned by an earlier read_output or send'),
  }),
  output: z.object({
    terminalId: z.string(),
    output: z.array(z.string()),
    partial: z.string().describe('The current unfinished line ("" if none)'),
    cursor: z.number().int().describe('Pass as since to continue after these lines'),
    dropped: z.number().int().describe('Lines after since that were evicted from the buffer before this read'),
    more: z.boolean().describe('True when more complete lines follow the cursor'),
    redacted: z.boolean().describe('True when secrets (keys, tokens, passwords) in this output were replaced by [REDACTED:<kind>]'),
    running: z.boolean(),
    exitCode: z.number().int().optional(),
    lastCommand: LastCommand.optional().describe('How the last command ended, where the shell reports it (shell integration)'),
  }),
  budget: 'simple',
  effect: 'read-only',
});

export const terminalList = defineTool({
  name: 'openspace.terminal.list',
  title: 'List Terminals',
  description: 'List the open terminals with their IDs, titles, working directories and whether their process still runs.',
  input: z.strictObject({}),
  output: z.object({ terminals: z.array(TerminalInfo), activeTerminalId: z.string().optional() }),
  budget: 'simple',
  effect: 'read-only',
});

export const terminalClose = defineTool({
  name: 'openspace.terminal.close',
  title: 'Close Terminal',
  description: 'Close a terminal and end its process.',
  input: z.strictObject({ terminalId: TerminalRef }),
  output: z.object({ terminalId: z.string() }),
  budget: 'simple',
  effect: 'destructive',
  session: { releases: (r) => [{ kind: 'terminal', id: r.terminalId }] },
});

/** The terminal terminal.run uses when no terminalId is given. */
export const AGENT_TERMINAL_TITLE = 'agent';
export const RUN_TIMEOUT_DEFAULT_MS = 30_000;
export const RUN_TIMEOUT_MAX_MS = 600_000;
/** How long terminal.run waits for a new terminal's first prompt, besides timeoutMs. */
export const FIRST_PROMPT_WAIT_MS = 10_000;
/** The most output lines terminal.run answers with: the last ones. */
export const RUN_OUTPUT_LINES = 200;

export const terminalRun = defineTool({
  name: 'openspace.terminal.run',
  core: true,
  title: 'Run Command in Terminal',
  description:
    'Run one shell command line in a terminal and answer when it has finished: its exitCode, its own output lines (not the prompt, ' +
    `not the echoed command), durationMs. Without terminalId it runs in the agent's terminal "${AGENT_TERMINAL_TITLE}", opened when needed. ` +
    `Only the last ${RUN_OUTPUT_LINES} lines come back (truncated:true): read the rest with openspace.terminal.read_output since startCursor. ` +
    'Still running after timeoutMs: timedOut:true and it keeps running; read on with read_output since cursor (lastCommand shows how it ended), ' +
    'or stop it with terminal.send {text:"\\u0003", enter:false}. Needs shell integration (bash in terminals OpenSpace opened): ' +
    'SHELL_INTEGRATION_UNAVAILABLE otherwise, TERMINAL_BUSY while a command runs there. Dangerous commands wait for a person, as with terminal.send.',
  input: z.strictObject({
    terminalId: TerminalRef.optional().describe(`Omit to use the agent's terminal "${AGENT_TERMINAL_TITLE}"`),
    command: z
      .string()
      .min(1)
      .max(100_000)
      .regex(/^[^\r\n]*$/, 'one line: join commands with ; or &&')
      .describe('One command line, e.g. "npm test"'),
    timeoutMs: z
      .number()
      .int()
      .min(1)
      .max(RUN_TIMEOUT_MAX_MS)
      .optional()
      .describe(`How long to wait for it to finish (default ${RUN_TIMEOUT_DEFAULT_MS}); keep it within your MCP client's own time limit`),
  }),
  output: z.object({
    terminalId: z.string(),
    exitCode: z.number().int().optional().describe("Its exit status (the shell's when it ended the shell); absent while it still runs"),
    output: z
      .array(z.string())
      .describe(
        'Its output lines, escape sequences removed, secrets redacted; once it has ended, the last one also when no newline ended it',
      ),
    partial: z.string().optional().describe('While it still runs (timedOut, shellExited): its unfinished last line, when it has one'),
    truncated: z.boolean().describe('True when earlier lines of its output are not in output'),
    startCursor: z.number().int().describe('Pass as since to read_output to read its output from the start'),
    cursor: z.number().int().describe('Pass as since to read_output to read what follows'),
    redacted: z.boolean(),
    durationMs: z.number(),
    timedOut: z.boolean(),
    shellExited: z.literal(true).optional().describe('Set when the shell ended (the command was exit or exec)'),
    created: z.literal(true).optional().describe(`Set when the agent's terminal was opened for this command`),
  }),
  budget: 'complex',
  effect: 'destructive',
  waitsUpTo: (args) => (args.timeoutMs ?? RUN_TIMEOUT_DEFAULT_MS) + FIRST_PROMPT_WAIT_MS,
  session: { creates: (r) => (r.created ? [{ kind: 'terminal', id: r.terminalId }] : []) },
});

export default [terminalCreate, terminalSend, terminalReadOutput, terminalList, terminalClose, terminalRun];
