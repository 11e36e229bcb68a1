import { MessageService } from '@theia/core/lib/common/message-service';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { CallContext, ErrorCode, Failure } from '../../../../src/browser.js';
import { COMMAND_FAILURE_NOTIFICATIONS, type CommandFailureNotifications } from '../common/preferences.js';

/** Agent failures that mean something broke (not the agent's mistake, not a refusal): shown under "errors". */
const BROKEN: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['INTERNAL', 'TIMEOUT', 'BRIDGE_UNAVAILABLE']);
/** Refusals the person just gave in a dialog (or left unanswered): no notification repeats them. */
const DECIDED_BY_PERSON: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['CONSENT_REQUIRED', 'CONFIRMATION_DENIED']);

/**
 * NFR-3.8.1: failed agent commands as notifications, per openspace.notifications.commandFailures:
 * `errors` (default) only when something broke (an error toast), `all` also the agent's own
 * mistakes and refused requests (a warning toast), `disabled` none. For the calls run in this window
 * and those the backend runs beside the files alike.
 */
@injectable()
export class AgentFailureNotices {
  @inject(MessageService) protected readonly messages!: MessageService;
  @inject(PreferenceService) protected readonly preferences!: PreferenceService;

  notify(tool: string, failure: Failure, context: CallContext | undefined): void {
    const mode = this.preferences.get<CommandFailureNotifications>(COMMAND_FAILURE_NOTIFICATIONS, 'errors');
    const broken = BROKEN.has(failure.code);
    if (mode === 'disabled' || DECIDED_BY_PERSON.has(failure.code) || (mode !== 'all' && !broken)) return;
    const agent = context?.clientName ? ` from ${context.clientName}` : '';
    // Notifications render their text as (sanitized) HTML; an agent's paths in the error stay text.
    const text = escapeHtml(`OpenSpace: agent command ${tool}${agent} failed (${failure.code}): ${failure.error}`);
    void (broken ? this.messages.error(text) : this.messages.warn(text));
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
