import { FileUri } from '@theia/core/lib/common/file-uri';
import type { JSONValue } from '@theia/core/shared/@lumino/coreutils';
import type { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { validateFilePatterns } from '../../../../src/browser.js';
import type { FilePolicySettings, FilesBackend } from '../common/protocol.js';
import { PROTECTED_FILE_PATTERNS, SENSITIVE_FILE_PATTERNS } from '../common/preferences.js';

/**
 * The file backend with the person's pattern preferences sent along on every call. The window reads
 * them because its PreferenceService is what Settings shows (user, workspace and folder scopes, JSONC,
 * live edits); Theia's backend knows only the user scope.
 */
export function withFilePolicySettings(backend: FilesBackend, preferences: PreferenceService): FilesBackend {
  return {
    async call(root, method, args) {
      await preferences.ready;
      return backend.call(root, method, args, filePolicySettings(preferences, FileUri.create(root).toString()));
    },
  };
}

/**
 * Patterns from every scope together, not the usual "workspace overrides user": a repository's
 * .theia/settings.json may add patterns but must not drop the ones a person set for themselves.
 */
export function filePolicySettings(preferences: PreferenceService, resourceUri: string): FilePolicySettings {
  const problems: string[] = [];
  const collect = (name: string): string[] => {
    const inspection = preferences.inspect<JSONValue>(name, resourceUri);
    const scopes = [
      ['user', inspection?.globalValue],
      ['workspace', inspection?.workspaceValue],
      ['folder', inspection?.workspaceFolderValue],
    ] as const;
    const patterns: string[] = [];
    for (const [scope, value] of scopes) {
      if (value === undefined) continue;
      const invalid = validateFilePatterns(value);
      problems.push(...invalid.map((why) => `${name} in the ${scope} settings: ${why}`));
      if (invalid.length === 0) patterns.push(...(value as string[]));
    }
    return patterns;
  };
  return { sensitivePatterns: collect(SENSITIVE_FILE_PATTERNS), protectedPatterns: collect(PROTECTED_FILE_PATTERNS), problems };
}
