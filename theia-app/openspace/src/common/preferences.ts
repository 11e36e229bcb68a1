import { injectable } from '@theia/core/shared/inversify';
import type { PreferenceContribution, PreferenceSchema, PreferenceSchemaService } from '@theia/core/lib/common/preferences/preference-schema';

export const CONFIRM_DANGEROUS_COMMANDS = 'openspace.security.confirmDangerousCommands';

export const openSpacePreferenceSchema: PreferenceSchema = {
  properties: {
    [CONFIRM_DANGEROUS_COMMANDS]: {
      type: 'boolean',
      default: true,
      description: 'Ask before the agent runs a terminal command that looks dangerous (rm -rf, sudo, curl | sh, git reset --hard …).',
    },
  },
};

/**
 * OpenSpace's preferences, and this app's default for workspace trust: off, because an agent drives
 * this IDE and a startup dialog would block it (a person can turn it back on in the settings).
 */
@injectable()
export class OpenSpacePreferenceDefaults implements PreferenceContribution {
  readonly schema = openSpacePreferenceSchema;

  async initSchema(service: PreferenceSchemaService): Promise<void> {
    service.registerOverride('security.workspace.trust.enabled', undefined, false);
  }
}
