import type { DebugConfiguration } from '@theia/debug/lib/common/debug-configuration';
import type { DebugAdapterContribution, DebugAdapterExecutable } from '@theia/debug/lib/common/debug-model';
import { adapterFor, debuggerHooks } from '../../../../src/node.js';
import { EXCHANGE_DIRECTORY_INSIDE } from '../../../../src/browser.js';
import { OPENSPACE_DEBUG_TYPES, type OpenSpaceDebugConfiguration } from '../common/debug-types.js';
import type { SandboxBackendImpl } from './sandbox-backend.js';

/**
 * The debug adapters of the debug family (src/families/debug/adapters.ts: debugpy, LLDB's DAP
 * server) as Theia debug types, so that Theia's debug views run, show and step the sessions an agent
 * starts, as they do the person's. An agent's session names the window's sandbox settings: its
 * adapter, and the program under it, run in the agent sandbox (a sandbox that cannot start fails the
 * start). Theia sends the configuration as the launch request's arguments, completed here.
 */
export function debugAdapterContribution(
  language: keyof typeof OPENSPACE_DEBUG_TYPES,
  sandboxes: SandboxBackendImpl,
): DebugAdapterContribution {
  const { type, label } = OPENSPACE_DEBUG_TYPES[language];
  return {
    type,
    label,
    async provideDebugAdapterExecutable(config: DebugConfiguration): Promise<DebugAdapterExecutable> {
      const { argv } = adapterFor(language);
      const { openspaceSandbox: sandbox, cwd } = config as OpenSpaceDebugConfiguration;
      if (!sandbox) return { command: argv[0]!, args: argv.slice(1) };
      if ('problem' in sandbox) throw new Error(`The agent sandbox's settings are wrong: ${sandbox.problem}`);
      const runtime = await sandboxes.sandboxesFor(sandbox);
      if ('unavailable' in runtime) throw new Error(`The agent sandbox cannot start here: ${runtime.unavailable}`);
      const line = await runtime.command(argv, cwd ?? '', process.env, debuggerHooks().dir);
      if ('unavailable' in line) throw new Error(`The agent sandbox cannot start here: ${line.unavailable}`);
      return { command: line[0]!, args: line.slice(1) };
    },
    resolveDebugConfigurationWithSubstitutedVariables(config: DebugConfiguration): DebugConfiguration {
      const { program, args, cwd, stopOnEntry, openspaceSandbox } = config as OpenSpaceDebugConfiguration;
      const hooks = openspaceSandbox ? EXCHANGE_DIRECTORY_INSIDE : debuggerHooks().dir;
      const launch = adapterFor(language).launch(program, args ?? [], cwd, stopOnEntry ?? false, hooks);
      return { ...config, ...launch, type, request: 'launch' };
    },
  };
}
