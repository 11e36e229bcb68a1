import { StatePublisher } from '../src/commands/state-publisher.js';
import { Hub } from '../src/hub/hub.js';
import { startHubServer, type HubServer } from '../src/hub/server.js';
import { SimIde, type SimIdeOptions } from './ide.js';

export const SIM_BRIDGE_ID = 'sim';

export interface SimHubOptions extends SimIdeOptions {
  port?: number;
  /** How often at most the IDE publishes its layout to the hub (FR-3.7.3: once a second). */
  publishIntervalMs?: number;
  callTimeoutMs?: number;
}

export interface SimHub {
  hub: Hub;
  ide: SimIde;
  server: HubServer;
  close(): Promise<void>;
}

/** Wire a simulated IDE to a hub the way Theia does: offer and register its bridge, publish its layout. */
export async function connectSimIde(options: SimIdeOptions & { publishIntervalMs?: number; callTimeoutMs?: number } = {}) {
  const ide = await SimIde.create(options);
  const hub = new Hub({ ideName: 'a simulated OpenSpace IDE', callTimeoutMs: options.callTimeoutMs });
  hub.bridges.offer(SIM_BRIDGE_ID, ide.bridge);
  hub.bridges.register(SIM_BRIDGE_ID);
  const publisher = new StatePublisher(ide.port, (snapshot) => hub.state.update(snapshot), options.publishIntervalMs ?? 1000);
  return {
    hub,
    ide,
    dispose() {
      publisher.dispose();
      ide.dispose();
    },
  };
}

/** A hub on the simulated IDE, serving HTTP on 127.0.0.1 (port 0: any free port). */
export async function startSimHub(options: SimHubOptions = {}): Promise<SimHub> {
  const connected = await connectSimIde(options);
  const server = await startHubServer(connected.hub, { port: options.port ?? 0 });
  return {
    hub: connected.hub,
    ide: connected.ide,
    server,
    async close() {
      connected.dispose();
      await server.close();
    },
  };
}
