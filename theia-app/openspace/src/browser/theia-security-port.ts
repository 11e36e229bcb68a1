import { type AbstractDialog, ConfirmDialog } from '@theia/core/lib/browser/dialogs';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { inject, injectable } from '@theia/core/shared/inversify';
import type {
  ActionQuestion,
  BoxVerdict,
  CommandAnswer,
  CommandQuestion,
  SecurityPort,
  CallContext,
  TerminalInfo,
} from '../../../../src/browser.js';
import {
  AGENT_CONSENT_SETTING,
  CONSENT_VERSION,
  ConsentGate,
  consentNotice,
  createFilePolicy,
  type FilePolicy,
  allowRulesFor,
  withAllowEntry,
  assessWithoutDisk,
} from '../../../../src/browser.js';
import { AGENTS_READ_MY_TERMINALS, ALLOWED_COMMANDS, CONFIRM_DANGEROUS_COMMANDS } from '../common/preferences.js';
import { ActionDialog, CommandDialog } from './command-dialog.js';
import { ContentIds } from './content-ids.js';
import { filePolicySettings } from './file-policy-settings.js';
import { TheiaSandbox } from './theia-sandbox.js';
import { TheiaTerminalPort } from './theia-terminal-port.js';

/** A confirmation nobody answers is a refusal, before the hub's own time limit runs out. */
const ANSWER_WITHIN_MS = 25_000;
/** A commit or a discard shows changes to read first: longer (the tools wait GIT_CONFIRM_WAIT_MS). */
const ACTION_ANSWER_WITHIN_MS = 110_000;

/**
 * Asks the person in dialogs: consent to agent control (§17.8) on the first agent command, and
 * "Agent wants to run: … — Allow once / Always allow commands like this in this workspace / Deny"
 * for terminal commands, remembering the rules in the person's user settings.
 */
@injectable()
export class TheiaSecurityPort implements SecurityPort {
  @inject(PreferenceService) protected readonly preferences!: PreferenceService;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  @inject(TheiaSandbox) protected readonly sandbox!: TheiaSandbox;
  @inject(TheiaTerminalPort) protected readonly terminals!: TheiaTerminalPort;
  /** The person's terminals they let agents read, and the questions open now (one per terminal). */
  private readonly readableTerminals = new Set<string>();
  private readonly terminalQuestions = new Map<string, Promise<boolean>>();
  /** Consent given in this window (a window shows one workspace) is not asked again until it reloads. */
  private readonly consent = new ConsentGate((context: CallContext) => this.askConsent(context));

  /**
   * "Don't show this again" is stored as the user preference openspace.security.agentConsent holding
   * the notice version, rather than in StorageService: a Theia user finds and revokes it in Settings
   * like security.workspace.trust.enabled, it is user scope only (a repository's .theia/settings.json
   * cannot consent for them), it follows them to every workspace as "don't show again" promises, and
   * CI preconfigures it in the user settings. Bumping CONSENT_VERSION asks everyone again.
   */
  /** Whether the person consented already (in this window, or "Don't show this again"): agents are not asked about. */
  consented(): boolean {
    return this.consent.granted || this.preferences.get<string>(AGENT_CONSENT_SETTING, '') === CONSENT_VERSION;
  }

  async agentConsent(context: CallContext): Promise<boolean> {
    if (this.consent.granted) return true;
    await this.preferences.ready;
    if (this.preferences.get<string>(AGENT_CONSENT_SETTING, '') === CONSENT_VERSION) return true;
    return this.consent.check(context);
  }

  private async askConsent(context: CallContext): Promise<boolean> {
    const notice = consentNotice(context.clientName);
    const body = document.createElement('div');
    body.className = 'openspace-confirm openspace-consent';
    for (const line of notice.lines) body.appendChild(document.createElement('p')).textContent = line;
    const label = body.appendChild(document.createElement('label'));
    const dontAsk = label.appendChild(document.createElement('input'));
    dontAsk.type = 'checkbox';
    label.append(" Don't show this again");
    const dialog = new ConfirmDialog({ title: notice.title, msg: body, ok: 'Allow', cancel: 'Cancel' });
    const answer = (await this.openWithin(dialog)) === true;
    if (!answer) return false;
    if (dontAsk.checked) {
      // The person said Allow: a settings file that cannot be written only means being asked again next time.
      await this.preferences
        .set(AGENT_CONSENT_SETTING, CONSENT_VERSION, PreferenceScope.User)
        .catch((err) => console.warn(`OpenSpace: could not store ${AGENT_CONSENT_SETTING}:`, err));
    }
    return true;
  }

  /**
   * An agent wants to read a terminal the person opened: asked once per terminal (a no asks again
   * next time); "for all my terminals" is the user setting openspace.security.agentsReadMyTerminals.
   */
  async terminalReadConsent(terminal: TerminalInfo, context: CallContext): Promise<boolean> {
    if (this.readableTerminals.has(terminal.terminalId)) return true;
    await this.preferences.ready;
    if (this.preferences.inspect<boolean>(AGENTS_READ_MY_TERMINALS)?.globalValue === true) return true;
    let question = this.terminalQuestions.get(terminal.terminalId);
    if (!question) {
      question = this.askTerminalRead(terminal, context).finally(() => this.terminalQuestions.delete(terminal.terminalId));
      this.terminalQuestions.set(terminal.terminalId, question);
    }
    return question;
  }

  private async askTerminalRead(terminal: TerminalInfo, context: CallContext): Promise<boolean> {
    const agent = context.clientName ? `The agent "${context.clientName}"` : 'An agent';
    const body = document.createElement('div');
    body.className = 'openspace-confirm';
    body.appendChild(document.createElement('p')).textContent =
      `${agent} wants to read the output of your terminal "${terminal.title}". It will see what was printed there, ` +
      'which may include things you typed (secrets it recognises are redacted).';
    const label = body.appendChild(document.createElement('label'));
    const always = label.appendChild(document.createElement('input'));
    always.type = 'checkbox';
    label.append(' Allow agents to read all my terminals from now on');
    const dialog = new ConfirmDialog({ title: 'OpenSpace: let the agent read your terminal?', msg: body, ok: 'Allow', cancel: 'Deny' });
    if ((await this.openWithin(dialog)) !== true) return false;
    this.readableTerminals.add(terminal.terminalId);
    if (always.checked) {
      await this.preferences
        .set(AGENTS_READ_MY_TERMINALS, true, PreferenceScope.User)
        .catch((err) => console.warn(`OpenSpace: could not store ${AGENTS_READ_MY_TERMINALS}:`, err));
    }
    return true;
  }

  /** The person's own (user) setting only: a workspace's settings may not loosen protection. */
  confirmDangerousCommands(): boolean {
    return this.preferences.inspect<boolean>(CONFIRM_DANGEROUS_COMMANDS)?.globalValue ?? true;
  }

  /**
   * The built-in protected paths and the person's openspace.security.protectedFilePatterns, as the file
   * tools apply them, read once per check and compiled again only when they change; an invalid
   * pattern fails it with the file tools' error (INTERNAL, naming the setting) rather than switch
   * protection off.
   */
  protectedPaths(): (path: string) => string | undefined {
    const { protectedPatterns, problems } = filePolicySettings(this.preferences, this.ids.rootUri?.toString() ?? '');
    if (problems.length > 0) throw new Error(problems.join('; '));
    const key = JSON.stringify(protectedPatterns);
    if (this.compiled?.key !== key) this.compiled = { key, policy: createFilePolicy({ protectedPatterns }) };
    const { policy } = this.compiled;
    return (path) => policy.isProtected(path);
  }

  private compiled: { key: string; policy: FilePolicy } | undefined;

  async confirmCommand(question: CommandQuestion): Promise<CommandAnswer> {
    return (await this.openWithin(new CommandDialog(question))) ?? 'deny';
  }

  async confirmAction(question: ActionQuestion): Promise<boolean> {
    return (await this.openWithin(new ActionDialog(question), ACTION_ANSWER_WITHIN_MS)) === true;
  }

  async assessInBox(terminal: TerminalInfo, text: string): Promise<BoxVerdict | undefined> {
    if (!terminal.sandboxed) return undefined;
    // A command that deletes, writes or reaches nothing by name is judged here (the settings still
    // checked: a wrong one fails every command); the rest beside the files.
    const quick = assessWithoutDisk(text);
    if (quick) return this.sandbox.settingsValid().then(() => quick);
    return this.sandbox.assess(terminal.cwd, text, await this.terminals.sandboxPid(terminal.terminalId));
  }

  async grantHosts(hosts: string[]): Promise<void> {
    await this.sandbox.grantHosts(hosts);
  }

  /** The person's own (user) setting only: a workspace's settings may not allow commands for them. */
  allowedCommands(): readonly string[] {
    const entries = this.preferences.inspect<string[]>(ALLOWED_COMMANDS)?.globalValue;
    return Array.isArray(entries) ? allowRulesFor(entries, this.workspaceKey()) : [];
  }

  async rememberCommand(rule: string): Promise<void> {
    const entries = withAllowEntry(this.preferences.inspect<string[]>(ALLOWED_COMMANDS)?.globalValue, rule, this.workspaceKey());
    if (!entries) return;
    await this.preferences
      .set(ALLOWED_COMMANDS, entries, PreferenceScope.User)
      .catch((err) => console.warn(`OpenSpace: could not store ${ALLOWED_COMMANDS}:`, err));
  }

  private workspaceKey(): string {
    return this.ids.rootUri?.path.fsPath() ?? '';
  }

  /** The dialog's answer; undefined for Cancel, Escape, or no answer within ANSWER_WITHIN_MS. */
  private async openWithin<T>(dialog: AbstractDialog<T>, withinMs = ANSWER_WITHIN_MS): Promise<T | undefined> {
    const timer = setTimeout(() => dialog.close(), withinMs);
    try {
      return await dialog.open();
    } finally {
      clearTimeout(timer);
    }
  }
}
