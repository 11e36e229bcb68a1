import { injectable } from '@theia/core/shared/inversify';
import type { PreferenceContribution, PreferenceSchemaService } from '@theia/core/lib/common/preferences/preference-schema';

/**
 * The app's default for workspace trust: off, because an agent drives this IDE and a startup dialog
 * would block it (a person can turn it back on in the settings).
 */
@injectable()
export class OpenSpacePreferenceDefaults implements PreferenceContribution {
  async initSchema(service: PreferenceSchemaService): Promise<void> {
    service.registerOverride('security.workspace.trust.enabled', undefined, false);
  }
}
