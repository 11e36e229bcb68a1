import { injectable } from '@theia/core/shared/inversify';
import type { PreferenceContribution, PreferenceSchema, PreferenceSchemaService } from '@theia/core/lib/common/preferences/preference-schema';

export const openSpacePreferenceSchema: PreferenceSchema = {
  properties: {
    'openspace.security.sensitiveFilePatterns': {
      type: 'array',
      items: { type: 'string' },
      default: [],
      description: 'Extra glob patterns (workspace-relative, any depth) of files the agent may not read, added to the built-in list (.env, keys, credentials, .git).',
    },
  },
};

/**
 * OpenSpace's preferences, and the app's default for workspace trust: off, because an agent drives
 * this IDE and a startup dialog would block it (a person can turn it back on in the settings).
 */
@injectable()
export class OpenSpacePreferenceContribution implements PreferenceContribution {
  readonly schema = openSpacePreferenceSchema;

  async initSchema(service: PreferenceSchemaService): Promise<void> {
    service.registerOverride('security.workspace.trust.enabled', undefined, false);
  }
}
