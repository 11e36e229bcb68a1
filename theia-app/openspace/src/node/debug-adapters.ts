import { createServer } from 'node:net';
import type { DebugConfiguration } from '@theia/debug/lib/common/debug-configuration';
import type { DebugAdapterContribution, DebugAdapterExecutable } from '@theia/debug/lib/common/debug-model';
import { adapterFor, commandRunner, debuggerHooks, type InProcessAdapter } from '../../../../src/node.js';
import { EXCHANGE_DIRECTORY_INSIDE } from '../../../../src/browser.js';
import { OPENSPACE_DEBUG_TYPES, type OpenSpaceDebugConfiguration } from '../common/debug-types.js';
import type { SandboxBackendImpl } from './sandbox-backend.js';

/** How long an adapter served in this process waits for Theia to connect. */
const CONNECT_WAIT_MS = 10_000;

/**
 * The debug adapters of the debug family (src/families/debug/adapters.ts: debugpy, LLDB's DAP
 * server, OpenSpace's own over Node's inspector) as Theia debug types, so that Theia's debug views
 * run, show and step the sessions an agent starts, as they do the person's. An agent's session names
 * the window's sandbox settings: its adapter, or the program the adapter starts, run in the agent
 * sandbox (a sandbox that cannot start fails the start). Theia sends the configuration as the launch
 * request's arguments, completed here. Node's adapter runs in this process, served to Theia on a
 * loopback port that takes one connection (`debugServer`).
 */
export function debugAdapterContribution(
  language: keyof typeof OPENSPACE_DEBUG_TYPES,
  sandboxes: SandboxBackendImpl,
): DebugAdapterContribution {
  const { type, label } = OPENSPACE_DEBUG_TYPES[language];
  const sandboxOf = async (config: OpenSpaceDebugConfiguration) => {
    const sandbox = config.openspaceSandbox;
    if (!sandbox) return undefined;
    if ('problem' in sandbox) throw new Error(`The agent sandbox's settings are wrong: ${sandbox.problem}`);
    const runtime = await sandboxes.sandboxesFor(sandbox);
    if ('unavailable' in runtime) throw new Error(`The agent sandbox cannot start here: ${runtime.unavailable}`);
    return runtime;
  };
  return {
    type,
    label,
    async provideDebugAdapterExecutable(config: DebugConfiguration): Promise<DebugAdapterExecutable> {
      const adapter = adapterFor(language);
      if (!('argv' in adapter)) throw new Error(`${label} runs in the backend, not as a program.`);
      const { argv } = adapter;
      const { cwd } = config as OpenSpaceDebugConfiguration;
      const runtime = await sandboxOf(config as OpenSpaceDebugConfiguration);
      if (!runtime) return { command: argv[0]!, args: argv.slice(1) };
      const line = await runtime.command(argv, cwd ?? '', process.env, debuggerHooks().dir);
      if ('unavailable' in line) throw new Error(`The agent sandbox cannot start here: ${line.unavailable}`);
      return { command: line[0]!, args: line.slice(1) };
    },
    async resolveDebugConfigurationWithSubstitutedVariables(config: DebugConfiguration): Promise<DebugConfiguration> {
      const { program, module, args, runtimeArgs, cwd, stopOnEntry, openspaceSandbox } = config as OpenSpaceDebugConfiguration;
      const adapter = adapterFor(language);
      if (config.request === 'attach') {
        // A running program: no sandbox (it is outside one; the person said yes to that).
        const { pid, port } = config as { pid?: number; port?: number };
        const target = pid !== undefined ? { pid } : { port: port! };
        // Only what the adapter's attach takes (debugpy reads a `port` beside `connect` as another target).
        const { name, openspaceSession } = config as OpenSpaceDebugConfiguration;
        const attach = { name, openspaceSession, ...adapter.attach(target), type, request: 'attach' };
        const served = adapter.attachServer?.(target);
        if (served !== undefined) return { ...attach, debugServer: served };
        if ('argv' in adapter) return attach;
        const hooks = debuggerHooks();
        const debugServer = await serveOnce(
          adapter,
          commandRunner(undefined, hooks.dir),
          { host: hooks.dir, inside: hooks.dir },
          hooks.remove,
        );
        return { ...attach, debugServer };
      }
      // A program adapter's hooks directory, in the sandbox, is the one its command line binds (above).
      const hooks = 'argv' in adapter && openspaceSandbox ? undefined : debuggerHooks();
      const inside = openspaceSandbox ? EXCHANGE_DIRECTORY_INSIDE : hooks!.dir;
      // The adapter's launch arguments in place of the window's (debugpy takes a program or a module, never both).
      const rest: DebugConfiguration = { ...config };
      for (const key of ['program', 'module', 'runtimeArgs']) delete rest[key];
      const target = { language, program, module, args: args ?? [], runtimeArgs: runtimeArgs ?? [] };
      const launch = { ...rest, ...adapter.launch(target, cwd, stopOnEntry ?? false, inside), type, request: 'launch' };
      if ('argv' in adapter || !hooks) return launch;
      const runtime = await sandboxOf(config as OpenSpaceDebugConfiguration);
      const debugServer = await serveOnce(adapter, commandRunner(runtime, hooks.dir), { host: hooks.dir, inside }, hooks.remove);
      return { ...launch, debugServer };
    },
  };
}

/** A loopback port where one connection gets the adapter (then the port closes); resolves with the port. */
function serveOnce(
  adapter: InProcessAdapter,
  run: Parameters<InProcessAdapter['create']>[0],
  hooks: Parameters<InProcessAdapter['create']>[1],
  ended: () => void,
): Promise<number> {
  const server = createServer((socket) => {
    server.close();
    clearTimeout(unused);
    const session = adapter.create(run, hooks);
    session.setRunAsServer(true);
    session.start(socket, socket);
    socket.on('close', () => {
      session.dispose();
      ended();
    });
  });
  const unused = setTimeout(() => (server.close(), ended()), CONNECT_WAIT_MS);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}
