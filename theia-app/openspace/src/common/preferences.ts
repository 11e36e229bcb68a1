import { injectable } from '@theia/core/shared/inversify';
import type {
  PreferenceContribution,
  PreferenceSchema,
  PreferenceSchemaService,
} from '@theia/core/lib/common/preferences/preference-schema';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import {
  AGENT_CONSENT_SETTING,
  DEFAULT_HIDDEN_PATHS,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_HOME_READABLE,
  SANDBOX_ALLOWED_HOSTS_SETTING,
  SANDBOX_HOME_READABLE_SETTING,
  SANDBOX_ENABLED_SETTING,
  SANDBOX_HIDDEN_PATHS_SETTING,
  SANDBOX_NETWORK_SETTING,
  TEST_RUNNERS_SETTING,
  TestRunner,
} from '../../../../src/browser.js';

export const CONFIRM_DANGEROUS_COMMANDS = 'openspace.security.confirmDangerousCommands';
export const SENSITIVE_FILE_PATTERNS = 'openspace.security.sensitiveFilePatterns';
export const AGENTS_READ_MY_TERMINALS = 'openspace.security.agentsReadMyTerminals';
export const ALLOWED_COMMANDS = 'openspace.security.allowedCommands';
export const PROTECTED_FILE_PATTERNS = 'openspace.security.protectedFilePatterns';
export const COMMAND_FAILURE_NOTIFICATIONS = 'openspace.notifications.commandFailures';
export const AGENT_COMMAND = 'openspace.agent.command';
export const AGENT_ARGS = 'openspace.agent.args';
export const CHAT_SERVER_URL = 'openspace.chat.serverUrl';
export const CHAT_OPENCODE_PATH = 'openspace.chat.opencodePath';
export const CHAT_ALWAYS_ALLOW = 'openspace.chat.alwaysAllow';
export const CHAT_AGENTS = 'openspace.chat.agents';
export type CommandFailureNotifications = 'all' | 'errors' | 'disabled';

export const openSpacePreferenceSchema: PreferenceSchema = {
  properties: {
    // Loosens protection, so user scope only: a repository's .theia/settings.json cannot turn it off.
    [CONFIRM_DANGEROUS_COMMANDS]: {
      type: 'boolean',
      default: true,
      scope: PreferenceScope.User,
      description:
        'Ask before the agent runs a terminal command that is not known to be safe (anything but reading, building, testing and ' +
        'the like: rm -rf, sudo, curl | sh, git push, python -c …), saying why. Only your user settings can turn this off; ' +
        'a workspace setting is ignored.',
    },
    // Loosens protection, so user scope only.
    [AGENTS_READ_MY_TERMINALS]: {
      type: 'boolean',
      default: false,
      scope: PreferenceScope.User,
      description:
        'Let agents read the output of terminals you opened yourself without asking. Off: the first time an agent wants ' +
        'to read one of your terminals you are asked, for that terminal. Terminals the agent opened are always readable.',
    },
    // Loosens protection, so user scope only: a repository cannot allow commands for the person.
    [ALLOWED_COMMANDS]: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      scope: PreferenceScope.User,
      description:
        'Terminal commands agents may run without asking, as "Always allow commands like this in this workspace" remembers them: ' +
        '`docker compose up (in /path/to/workspace)` allows `docker compose up` and the same with more arguments in that workspace; ' +
        'without "(in …)" a rule holds in every workspace. Remove an entry to be asked again. A workspace setting is ignored.',
    },
    [TEST_RUNNERS_SETTING]: {
      type: 'array',
      items: { type: 'string', enum: [...TestRunner.options] },
      description:
        "The test runners of this workspace's tests (vitest, jest, node, pytest), instead of finding them from package.json, config files " +
        'and test file names. Unset: found.',
    },
    [SENSITIVE_FILE_PATTERNS]: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      description:
        'Glob patterns of files agents may not read, added to the built-in ones (.env, .env.*, .git/**, id_rsa, *.pem, *.key, ' +
        'credentials.json, secrets.*, **/secrets/**, .aws/credentials). Workspace-relative, case-insensitive, matched at any depth ' +
        '(`*.secret`, `config/prod.yaml`, `private/**`). An invalid pattern makes every agent file command fail until it is fixed.',
    },
    [PROTECTED_FILE_PATTERNS]: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      description:
        'Glob patterns of files agents may not write, added to the built-in ones (.git/**, node_modules/**, .theia/**, .openspace/**). ' +
        'Same syntax as openspace.security.sensitiveFilePatterns.',
    },
    // A person's "Don't show this again" in the consent dialog. User scope only, so a repository's
    // .theia/settings.json cannot consent on the person's behalf.
    [AGENT_CONSENT_SETTING]: {
      type: 'string',
      default: '',
      scope: PreferenceScope.User,
      description:
        'The version of the OpenSpace agent-consent notice you accepted with "Don\'t show this again". Empty: you are asked ' +
        'on the first agent command in each window. Clear it to be asked again.',
    },
    // What runs on the person's machine, so user scope only: a repository cannot choose it.
    [AGENT_COMMAND]: {
      type: 'string',
      default: 'opencode',
      scope: PreferenceScope.User,
      description:
        'The agent CLI the agent pane (Ctrl+L) runs: a name on PATH (opencode, claude, …) or a path. It starts in the workspace ' +
        "with this IDE's MCP server configured (OpenCode and Claude Code through their own config; any CLI through " +
        'OPENSPACE_MCP_URL and OPENSPACE_TOKEN in its environment).',
    },
    [AGENT_ARGS]: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      scope: PreferenceScope.User,
      description: 'Arguments the agent pane passes to its CLI, e.g. ["--model", "anthropic/claude-sonnet-4"].',
    },
    // User scope: a repository must not send the person's chats to a server of its choosing.
    [CHAT_SERVER_URL]: {
      type: 'string',
      default: '',
      scope: PreferenceScope.User,
      description:
        'The chat panel: the URL of a running OpenCode server (`opencode serve`) to use, e.g. http://127.0.0.1:4096. Empty: ' +
        "the IDE starts its own in the workspace, with this IDE's MCP server configured.",
    },
    // User scope: a repository must not choose a program the IDE runs.
    [CHAT_OPENCODE_PATH]: {
      type: 'string',
      default: '',
      scope: PreferenceScope.User,
      description:
        'The chat panel: the opencode program to start (a name on PATH or a path). Empty: the one installed with this app, ' +
        'else opencode on PATH.',
    },
    // User scope: a repository must not choose a program the IDE runs.
    [CHAT_AGENTS]: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'What the panel calls it' },
          command: { type: 'string', description: 'The program (a name on PATH or a path)' },
          args: { type: 'array', items: { type: 'string' } },
          env: { type: 'object', additionalProperties: { type: 'string' } },
        },
        required: ['name', 'command'],
      },
      default: [],
      scope: PreferenceScope.User,
      description:
        'The chat panel: agents it can run over the Agent Client Protocol (ACP), besides OpenCode, e.g. ' +
        '`{"name": "Claude", "command": "claude-agent-acp"}`, `{"name": "Gemini CLI", "command": "gemini", "args": ["--acp"]}`. ' +
        'Claude (claude-agent-acp), Codex (codex-acp) and Gemini CLI (gemini) are offered when on PATH; an entry of the same name replaces one.',
    },
    // Loosens protection, so user scope only.
    [CHAT_ALWAYS_ALLOW]: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      scope: PreferenceScope.User,
      description:
        'OpenCode permission requests the chat answers "always" without asking, as "Always allow" keeps them: `<permission>` ' +
        '(every request of it, e.g. `openspace_openspace_file_write`) or `<permission> <pattern>` (`bash git log*`: only ' +
        'requests all of whose patterns match). Remove an entry to be asked again.',
    },
    // Any scope, but a workspace's value only tightens the sandbox (src/security/sandbox.ts).
    [SANDBOX_ENABLED_SETTING]: {
      type: 'boolean',
      default: true,
      description:
        'Run the terminals agents open in a sandbox (Linux, bubblewrap): the workspace writable, the rest of the file system ' +
        'read-only, a /tmp of their own, your credentials hidden, everything they started ended with the terminal. Your own ' +
        'terminals are never sandboxed. Only your user settings can turn it off; a workspace setting can only turn it on.',
    },
    [SANDBOX_NETWORK_SETTING]: {
      type: 'boolean',
      default: true,
      description:
        'Let sandboxed agent terminals reach the hosts in openspace.security.sandbox.allowedHosts, through a proxy outside the ' +
        "sandbox. Off: they have no network at all. Either way they never reach this IDE's port or other local services you do " +
        'not allow. Only your user settings can turn it on; a workspace setting can only turn it off.',
    },
    [SANDBOX_ALLOWED_HOSTS_SETTING]: {
      type: 'array',
      items: { type: 'string' },
      default: [...DEFAULT_ALLOWED_HOSTS],
      description:
        'The hosts sandboxed agent terminals may reach (when openspace.security.sandbox.network is on): `registry.npmjs.org`, ' +
        '`*.example.com` (its subdomains), `example.com:8443`, `localhost:3000` (a port of this machine), `*` (any host name). ' +
        'A command naming another host asks you first; "Allow once" lets it through for 10 minutes. A workspace setting can only narrow the list.',
    },
    [SANDBOX_HOME_READABLE_SETTING]: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      scope: PreferenceScope.User,
      description:
        `Sandboxed agent terminals see an empty home directory, with read-only access to ${DEFAULT_HOME_READABLE.join(', ')}. ` +
        'Add what your toolchains need (absolute, or starting with ~/); never credentials. User settings only.',
    },
    [SANDBOX_HIDDEN_PATHS_SETTING]: {
      type: 'array',
      items: { type: 'string' },
      default: [],
      description:
        `Files and directories sandboxed agent terminals cannot read (a directory shows empty), besides ${DEFAULT_HIDDEN_PATHS.join(', ')} and the hub's ` +
        'lock files: absolute, or starting with ~/ (e.g. "~/.config/gh"). Paths from user and workspace settings all apply.',
    },
    [COMMAND_FAILURE_NOTIFICATIONS]: {
      type: 'string',
      enum: ['all', 'errors', 'disabled'],
      enumDescriptions: [
        'A notification for every agent command that fails (except refusals you just gave in a dialog).',
        "A notification only when something broke (an internal error), not for the agent's own mistakes or refused requests.",
        'No notifications for agent commands.',
      ],
      default: 'errors',
      description: 'Which failed agent commands show a notification. Commands you run from the palette always report.',
    },
  },
};

/**
 * OpenSpace's preferences, and this app's default for workspace trust: off, because an agent drives
 * this IDE and a startup dialog would block it (a person can turn it back on in the settings).
 */
@injectable()
export class OpenSpacePreferenceDefaults implements PreferenceContribution {
  readonly schema = openSpacePreferenceSchema;

  async initSchema(service: PreferenceSchemaService): Promise<void> {
    service.registerOverride('security.workspace.trust.enabled', undefined, false);
  }
}
