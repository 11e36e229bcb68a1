/**
 * The window's DebugService, as Theia's debug module makes it (the backend's RPC proxy), with the
 * `onDidChangeDebuggers` event that only the plugin system's debug service has. This app has no
 * plugin system, and Theia's disassembly view subscribes to that event when it is there
 * (`onDidChangeDebuggers?.(…)`): on the RPC proxy every name is there, so the subscription went to
 * the backend as a notification it has no method for ("TypeError: this.target[method] is not a
 * function" logged at each window's load). The debuggers here are fixed when the app is built, so
 * the event never fires.
 */
import { Event } from '@theia/core/lib/common/event';
import type { DebugService } from '@theia/debug/lib/common/debug-service';

export function withDebuggersEvent(service: DebugService): DebugService {
  return new Proxy(service, {
    get: (target, name) => (name === 'onDidChangeDebuggers' ? Event.None : target[name as keyof DebugService]),
  });
}
