/**
 * The simulated IDE's "always allow" rules for agents' terminal commands, in a user-level file (by
 * default ~/.openspace/allowed-commands.json: a JSON array of entries as src/security/allow-rules.ts
 * writes them), outside every workspace, so neither a repository nor an agent's file tools plant one.
 * Without a file (tests, an IDE started from code) the rules live as long as the IDE.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { allowRulesFor, withAllowEntry } from '../src/security/allow-rules.js';

export const DEFAULT_ALLOWED_COMMANDS_FILE = join(homedir(), '.openspace', 'allowed-commands.json');

export class AllowedCommands {
  private remembered: unknown[] = [];
  private warnedAbout: string | undefined;

  constructor(
    private readonly workspace: string,
    private readonly file?: string,
  ) {}

  /** The rules that hold in this workspace now (the file is read each time: the person may edit it). */
  rules(): string[] {
    return allowRulesFor(this.entries(), this.workspace);
  }

  remember(rule: string): void {
    const entries = withAllowEntry(this.entries(), rule, this.workspace);
    if (!entries) return;
    if (!this.file) {
      this.remembered = entries;
      return;
    }
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileSync(this.file, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o600 });
  }

  private entries(): unknown[] {
    if (!this.file) return [...this.remembered];
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // reported below
    }
    // Said once per broken content, not at every command.
    if (text !== this.warnedAbout) {
      this.warnedAbout = text;
      process.stderr.write(
        `openspace: warning: ${this.file} is not a JSON array of rules; no command is always allowed until it is fixed\n`,
      );
    }
    return [];
  }
}
