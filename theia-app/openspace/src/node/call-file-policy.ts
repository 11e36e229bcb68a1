import { AsyncLocalStorage } from 'node:async_hooks';
import { ToolError, createFilePolicy, type FilePolicy } from '../../../../src/browser.js';
import type { FilePolicySettings } from '../common/protocol.js';

/**
 * The file policy of the call in progress. One WorkspaceFiles serves every call on a workspace while
 * the person's patterns arrive with each call (they may edit them at any time): `current` is the
 * WorkspaceFiles' policy and answers with the policy of the call it runs in, so concurrent calls
 * never see each other's patterns. Outside a call: the built-in patterns.
 */
export class CallFilePolicy {
  private readonly scope = new AsyncLocalStorage<FilePolicy>();
  private readonly builtIn = createFilePolicy();
  private last: { key: string; policy: FilePolicy } | undefined;

  readonly current: FilePolicy = {
    isSensitive: (relPath) => (this.scope.getStore() ?? this.builtIn).isSensitive(relPath),
    isProtected: (relPath) => (this.scope.getStore() ?? this.builtIn).isProtected(relPath),
  };

  /** The policy for a call's settings; invalid patterns fail the call instead of being ignored. */
  compile(settings: FilePolicySettings | undefined): FilePolicy {
    if (!settings) return this.builtIn;
    const problems = Array.isArray(settings.problems) ? settings.problems : [];
    const key = JSON.stringify([settings.sensitivePatterns, settings.protectedPatterns, problems]);
    if (this.last?.key === key) return this.last.policy;
    let policy: FilePolicy;
    try {
      if (problems.length > 0) throw new Error(problems.join('; '));
      policy = createFilePolicy({ sensitivePatterns: settings.sensitivePatterns, protectedPatterns: settings.protectedPatterns });
    } catch (err) {
      throw new ToolError(
        'INTERNAL',
        `OpenSpace's file-pattern settings are invalid (${(err as Error).message}). No file was touched: agents cannot use ` +
          'files until the person fixes openspace.security.sensitiveFilePatterns / protectedFilePatterns in the settings.',
      );
    }
    this.last = { key, policy };
    return policy;
  }

  run<T>(policy: FilePolicy, fn: () => Promise<T>): Promise<T> {
    return this.scope.run(policy, fn);
  }
}
