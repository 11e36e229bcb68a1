import type { CallContext, ErrorCode } from '../../../../src/contract/index.js';
import type { BridgeResult } from '../../../../src/hub/bridge.js';

/** RPC path of the CommandBridge: the backend (hub) calls into a frontend window. */
export const BRIDGE_PATH = '/services/openspace/bridge';

/** Implemented by each frontend window: run a command in its CommandRegistry. */
export interface BridgeFrontend {
  /** `context` arrives without `ask` (functions do not cross RPC). */
  execute(commandId: string, args: unknown, context?: CallContext): Promise<BridgeResult>;
}

/** Implemented by the backend per window connection. */
export interface BridgeBackend {
  /** The ID the hub knows this window's bridge by; the window registers it to serve. */
  bridgeId(): Promise<string>;
}

/** RPC path of the workspace file service (the path guard runs on the Node side). */
export const FILES_PATH = '/services/openspace/files';

export type FilesMethod = 'resolve' | 'stat' | 'readText' | 'writeText' | 'list' | 'search';

export type FilesOutcome =
  | { ok: true; value: unknown }
  | { ok: false; code: ErrorCode; message: string; details: Record<string, unknown> };

export interface FilesBackend {
  call(root: string, method: FilesMethod, args: unknown[]): Promise<FilesOutcome>;
}
