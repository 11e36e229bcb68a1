import { resolve } from 'node:path';
import { StatePublisher } from '../src/commands/state-publisher.js';
import { Hub, type HubOptions } from '../src/hub/hub.js';
import { testsSummary } from '../src/hub/instructions.js';
import type { AuditSink } from '../src/security/audit-log.js';
import { startHubServer, type HubServer, type HubServerOptions } from '../src/hub/server.js';
import type { SimIde, SimIdeOptions } from './ide.js';

export const SIM_BRIDGE_ID = 'sim';
const SIM_IDE_NAME = 'a simulated OpenSpace IDE';

export interface SimConnectOptions extends SimIdeOptions, Pick<HubOptions, 'callTimeoutMs' | 'maxCallsPerTurn' | 'turnIdleMs'> {
  /** How often at most the IDE publishes its layout to the hub (FR-3.7.3: once a second). */
  publishIntervalMs?: number;
}

export interface SimHubOptions
  extends SimConnectOptions, Pick<HubServerOptions, 'port' | 'auth' | 'token' | 'allowedOrigins' | 'sessionIdleMs' | 'lockFile'> {}

export interface SimHub {
  hub: Hub;
  ide: SimIde;
  server: HubServer;
  close(): Promise<void>;
}

/**
 * Wire a simulated IDE to a new hub the way Theia does: offer and register its bridge, publish its
 * layout. The bridge serves at once and waits for the IDE, which loads in the background (the
 * simulated IDE's modules are imported lazily, so the hub answers tools/list sooner).
 */
export function connectSimIde(options: SimConnectOptions & { loadDelayMs?: number } = {}) {
  let load: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (load = resolve))
    .then(() => import('./ide.js'))
    .then(({ SimIde }) => SimIde.create(options));
  const audit: AuditSink = {
    record: (entry) =>
      void ready.then(
        (ide) => ide.audit.record(entry),
        () => undefined,
      ),
  };
  const hub = new Hub({
    ideName: SIM_IDE_NAME,
    callTimeoutMs: options.callTimeoutMs,
    maxCallsPerTurn: options.maxCallsPerTurn,
    turnIdleMs: options.turnIdleMs,
    audit,
  });
  // Loading the IDE waits a moment so it does not hold up a client's first initialize and tools/list;
  // the first command loads it at once.
  const timer = setTimeout(load, options.loadDelayMs ?? 0);
  hub.bridges.offer(SIM_BRIDGE_ID, {
    execute: async (commandId, args, context) => {
      clearTimeout(timer);
      load();
      return (await ready).bridge.execute(commandId, args, context);
    },
  });
  hub.bridges.register(SIM_BRIDGE_ID);
  const connected = ready.then((ide) => {
    const publisher = new StatePublisher(ide.port, (snapshot) => hub.state.update(snapshot), options.publishIntervalMs ?? 1000);
    ide.port.tests.onRun((run) => hub.state.testsRan(testsSummary(run)));
    return {
      hub,
      ide,
      dispose(): Promise<void> {
        publisher.dispose();
        return ide.dispose();
      },
    };
  });
  // A failed start is reported through `connected`; keep the bridge's copy from going unhandled.
  ready.catch(() => undefined);
  return { hub, connected };
}

/** A hub on the simulated IDE, serving HTTP on 127.0.0.1 (port 0: any free port). */
export async function startSimHub(options: SimHubOptions & { loadDelayMs?: number } = {}): Promise<SimHub> {
  const { hub, connected } = connectSimIde(options);
  const serverOptions: HubServerOptions = {
    port: options.port ?? 0,
    auth: options.auth,
    token: options.token,
    allowedOrigins: options.allowedOrigins,
    sessionIdleMs: options.sessionIdleMs,
    lockFile: options.lockFile,
    ideName: SIM_IDE_NAME,
    workspaceFolders: options.workspace?.kind === 'disk' ? [resolve(options.workspace.root)] : [],
  };
  const [server, sim] = await Promise.all([startHubServer(hub, serverOptions), connected]).catch(async (err: unknown) => {
    void connected.then(
      (c) => c.dispose(),
      () => undefined,
    );
    throw err;
  });
  return {
    hub,
    ide: sim.ide,
    server,
    async close() {
      await server.close();
      await sim.dispose();
      await sim.ide.files.dispose(); // the store's last snapshots are kept before the workspace may be removed
      await sim.ide.audit.flush();
    },
  };
}
