#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { clientConfig } from '../src/init/client-config.js';
import { DEFAULT_ALLOWED_COMMANDS_FILE } from './allowed-commands.js';

const USAGE = `Usage: npm start -- [options]

Starts the OpenSpace hub on the simulated IDE.

  --workspace DIR          use a real directory (default: the demo workspace, in memory)
  --port N                 HTTP port on 127.0.0.1 (default 3100; 0 picks a free one)
  --terminal KIND          process (a real shell; needs --workspace) or scripted (default for the demo)
  --stdio                  speak MCP over stdin/stdout instead of HTTP (for clients that spawn their server)
  --consent                allow agents to work in a --workspace directory without asking first
                           (otherwise the first call asks through the MCP client, or answers CONSENT_REQUIRED)
  --no-confirm             never ask before an agent's terminal command (default: ask through the MCP client, or
                           answer CONFIRMATION_REQUIRED, for what the sandbox cannot contain: deleting files git
                           tracks, hosts it does not let through; without a sandbox, every command); a workspace's
                           settings cannot do this
  --no-sandbox             run agent terminals without the sandbox (default on Linux: bubblewrap keeps them to the
                           workspace, a private /tmp, an empty home, no credentials, no capabilities, no network but
                           the allowed hosts); a workspace's settings cannot do this
  --sandbox-network on|off off: agent terminals have no network at all (default on: the allowed hosts only, through a
                           proxy); a workspace's settings may turn it off
  --sandbox-allow-host HOST  let agent terminals reach HOST too: registry.example.com, *.example.com, host:8443,
                           localhost:3000 (a port of this machine), * (any host name); repeatable; replaces none
                           of the defaults (the package registries)
  --sandbox-read PATH      let agent terminals read this path of your home too (read-only), e.g. ~/.m2/repository
                           (repeatable)
  --sandbox-hide PATH      hide this file or directory from agent terminals too, e.g. /srv/keys (repeatable)
  --no-auth                do not require the access token (any local process may then call the hub);
                           OPENSPACE_TOKEN=<32+ characters> sets the token instead of a generated one
  --proposals DECISION     what decides an agent's edit proposal (openspace.editor.propose_edit) when its MCP
                           client cannot ask you (elicitation): accept (default), reject, or wait (pending)
  --allow-origin ORIGIN    a browser origin allowed to call the hub besides its own (repeatable)
  --max-calls-per-turn N   tool calls one agent turn may make (default 50; 0 = no limit)
  --language-server ENDINGS=COMMAND
                           a language server for code intelligence besides TypeScript/JavaScript's, e.g.
                           "py,pyi=pyright-langserver --stdio" (repeatable; it speaks LSP on stdio)
  -h, --help               show this help`;

function fail(message: string): never {
  process.stderr.write(`openspace: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        workspace: { type: 'string' },
        port: { type: 'string', default: '3100' },
        terminal: { type: 'string' },
        stdio: { type: 'boolean', default: false },
        consent: { type: 'boolean', default: false },
        'no-auth': { type: 'boolean', default: false },
        'no-confirm': { type: 'boolean', default: false },
        'no-sandbox': { type: 'boolean', default: false },
        'sandbox-network': { type: 'string', default: 'on' },
        'sandbox-hide': { type: 'string', multiple: true, default: [] },
        'sandbox-allow-host': { type: 'string', multiple: true, default: [] },
        'sandbox-read': { type: 'string', multiple: true, default: [] },
        'allow-origin': { type: 'string', multiple: true, default: [] },
        'max-calls-per-turn': { type: 'string', default: '50' },
        'language-server': { type: 'string', multiple: true, default: [] },
        proposals: { type: 'string', default: 'accept' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not "${values.port}"`);
  const terminal = values.terminal;
  if (terminal !== undefined && terminal !== 'process' && terminal !== 'scripted')
    fail(`--terminal must be process or scripted, not "${terminal}"`);
  const workspace = values.workspace ? ({ kind: 'disk', root: values.workspace } as const) : ({ kind: 'memory' } as const);
  const maxCallsPerTurn = Number(values['max-calls-per-turn']);
  if (!Number.isInteger(maxCallsPerTurn) || maxCallsPerTurn < 0)
    fail(`--max-calls-per-turn must be a whole number, not "${values['max-calls-per-turn']}"`);
  for (const origin of values['allow-origin']) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) fail(`--allow-origin must be an origin such as http://localhost:5173, not "${origin}"`);
  }
  const [{ typescriptServer }, { parseLanguageServer, describeServers }] = await Promise.all([
    import('../src/lsp/typescript.js'),
    import('../src/lsp/servers.js'),
  ]);
  let languageServers;
  try {
    languageServers = [typescriptServer(), ...values['language-server'].map(parseLanguageServer)];
  } catch (err) {
    fail(`--language-server: ${(err as Error).message}`);
  }
  const proposals = values.proposals;
  if (proposals !== 'accept' && proposals !== 'reject' && proposals !== 'wait') {
    fail(`--proposals must be accept, reject or wait, not "${proposals}"`);
  }
  const network = values['sandbox-network'];
  if (network !== 'on' && network !== 'off') fail(`--sandbox-network must be on or off, not "${network}"`);
  const { AllowedHostSetting, DEFAULT_ALLOWED_HOSTS, HiddenPathSetting } = await import('../src/security/sandbox.js');
  for (const [flag, schema] of [
    ['sandbox-hide', HiddenPathSetting],
    ['sandbox-read', HiddenPathSetting],
    ['sandbox-allow-host', AllowedHostSetting],
  ] as const) {
    for (const value of values[flag]) {
      const checked = schema.safeParse(value);
      if (!checked.success) fail(`--${flag} "${value}": ${checked.error.issues[0]!.message}`);
    }
  }
  const sandbox = {
    enabled: !values['no-sandbox'],
    network: network === 'on',
    hiddenPaths: values['sandbox-hide'],
    homeReadable: values['sandbox-read'],
    allowedHosts: [...DEFAULT_ALLOWED_HOSTS, ...values['sandbox-allow-host']],
  };
  const consent = values.consent ? ('granted' as const) : undefined;
  const confirmDangerousCommands = !values['no-confirm'];

  if (values.stdio) {
    const [{ connectSimIde }, { StdioServerTransport }] = await Promise.all([
      import('./start.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
    // As over HTTP, the client's initialize and tools/list are answered while the IDE loads; a
    // command waits for it, and an IDE that cannot start ends the process with the reason.
    const { hub, connected } = connectSimIde({
      workspace,
      terminal,
      consent,
      confirmDangerousCommands,
      sandbox,
      maxCallsPerTurn,
      languageServers,
      proposals,
      allowedCommandsFile: DEFAULT_ALLOWED_COMMANDS_FILE,
      loadDelayMs: 100,
    });
    await hub.createMcpServer().connect(new StdioServerTransport());
    // The client closing our stdin (it exited, or was killed) ends the hub and its language servers.
    // (An IDE that cannot start exits with its reason below instead.)
    process.stdin.once(
      'end',
      () =>
        void connected.then(
          ({ ide }) =>
            ide
              .dispose()
              .catch((err: Error) => process.stderr.write(`openspace: stopping the simulated IDE: ${err.message}\n`))
              .finally(() => process.exit(0)),
          () => {},
        ),
    );
    const { ide } = await connected.catch((err: Error) => fail(err.message));
    warmUp(ide.code);
    process.stderr.write(`openspace: MCP over stdio on the simulated IDE, workspace ${ide.workspace.label}\n`);
    return;
  }

  const { startSimHub } = await import('./start.js');
  let sim;
  try {
    sim = await startSimHub({
      workspace,
      terminal,
      port,
      consent,
      confirmDangerousCommands,
      sandbox,
      maxCallsPerTurn,
      auth: !values['no-auth'],
      token: process.env.OPENSPACE_TOKEN || undefined,
      allowedOrigins: values['allow-origin'],
      languageServers,
      proposals,
      allowedCommandsFile: DEFAULT_ALLOWED_COMMANDS_FILE,
      loadDelayMs: 100,
    });
  } catch (err) {
    const error = err as NodeJS.ErrnoException;
    if (error.code === 'EADDRINUSE') fail(`port ${port} is in use on 127.0.0.1; pass --port 0 for a free one, or another number`);
    fail(error.message);
  }
  process.stdout.write(
    [
      `OpenSpace hub on the simulated IDE is ready.`,
      `  Workspace:     ${sim.ide.workspace.label}`,
      `  Terminals:     ${sim.ide.terminalBackend}`,
      `  Code:          ${describeServers(languageServers)}`,
      clientConfig(sim.server.mcpUrl, sim.server.instructionsUrl, sim.server.token),
      sim.server.lockFile ? `\nThe URL and token are also in ${sim.server.lockFile} (readable by you only).` : '',
      '',
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  warmUp(sim.ide.code);
  const stop = () => {
    void sim.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Start the language servers now, so an agent's first code question finds them ready; a failure shows in that answer. */
function warmUp(code: { warmUp(): Promise<void> }): void {
  code.warmUp().catch(() => undefined);
}

void main();
