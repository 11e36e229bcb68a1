import { ConfirmDialog } from '@theia/core/lib/browser/dialogs';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { SecurityPort } from '../../../../src/commands/port.js';
import { CONFIRM_DANGEROUS_COMMANDS } from '../common/preferences.js';

/** A confirmation nobody answers is a refusal, before the hub's own time limit runs out. */
const ANSWER_WITHIN_MS = 25_000;

/** Asks the person in a dialog ("Agent wants to run: … — Allow / Deny"), remembering allowed commands for the session if asked to. */
@injectable()
export class TheiaSecurityPort implements SecurityPort {
  @inject(PreferenceService) protected readonly preferences!: PreferenceService;
  private readonly allowed = new Set<string>();

  confirmDangerousCommands(): boolean {
    return this.preferences.get<boolean>(CONFIRM_DANGEROUS_COMMANDS, true);
  }

  async confirm(message: string): Promise<boolean> {
    if (this.allowed.has(message)) return true;
    const body = document.createElement('div');
    body.className = 'openspace-confirm';
    const text = body.appendChild(document.createElement('p'));
    text.textContent = message;
    const label = body.appendChild(document.createElement('label'));
    const remember = label.appendChild(document.createElement('input'));
    remember.type = 'checkbox';
    label.append(' Allow this command for the rest of the session');
    const dialog = new ConfirmDialog({ title: 'OpenSpace: the agent wants to run a command', msg: body, ok: 'Allow', cancel: 'Deny' });
    const timer = setTimeout(() => dialog.close(), ANSWER_WITHIN_MS);
    const answer = await dialog.open();
    clearTimeout(timer);
    if (answer === true && remember.checked) this.allowed.add(message);
    return answer === true;
  }
}
