import type { DebugConfiguration } from '@theia/debug/lib/common/debug-configuration';
import type { DebugLanguageName } from '../../../../src/browser.js';
import type { WindowView } from './protocol.js';

/** The Theia debug types of the debug family's adapters (theia-app/openspace/src/node/debug-adapters.ts). */
export const OPENSPACE_DEBUG_TYPES: Record<DebugLanguageName, { type: string; label: string }> = {
  python: { type: 'openspace-python', label: 'Python (debugpy)' },
  c: { type: 'openspace-lldb', label: 'C, C++, Rust (LLDB)' },
  node: { type: 'openspace-node', label: 'JavaScript, TypeScript (Node)' },
};

/** A session of theirs: the program, absolute paths, and for an agent's the sandbox it runs in. */
export interface OpenSpaceDebugConfiguration extends DebugConfiguration {
  /** '' where `module` says what Python runs. */
  program: string;
  /** Python's `-m` module. */
  module?: string;
  args?: string[];
  /** The interpreter's options before the program (python3 -X dev, node --enable-source-maps …). */
  runtimeArgs?: string[];
  cwd: string;
  stopOnEntry?: boolean;
  /** The agent's debug session this is (debug-1 …). */
  openspaceSession?: string;
  /** The window's sandbox settings: the adapter and its program run in that sandbox. */
  openspaceSandbox?: WindowView['sandbox'];
}
