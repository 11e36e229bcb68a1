import { MessageService } from '@theia/core/lib/common/message-service';
import { QuickInputService, type QuickPickItem, type QuickPickSeparator } from '@theia/core/lib/common/quick-pick-service';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { InputRequest, PickRequest, PromptUi } from './palette-prompts.js';

type Row<V> = QuickPickItem & { value: V };

/** The palette's prompts in Theia's quick input: a quick pick for lists, an input box for text. */
@injectable()
export class QuickInputPromptUi implements PromptUi {
  @inject(QuickInputService) protected readonly quickInput!: QuickInputService;
  @inject(MessageService) protected readonly messages!: MessageService;

  async pick<V>({ title, placeholder, entries, typed }: PickRequest<V>): Promise<V | undefined> {
    const rows: Array<Row<V> | QuickPickSeparator> = entries.map((e) => ('separator' in e ? { type: 'separator', label: e.separator } : e));
    const chosen = await this.quickInput.showQuickPick<Row<V>>(rows, {
      title,
      placeholder,
      matchOnDescription: true,
      // What was typed is a row of its own only when no row holds it: the list sorts by match, and
      // Enter must still take a listed row that matches.
      onDidChangeValue: typed
        ? (quickPick, text) => {
            const needle = text.toLowerCase();
            const holds = (row: Row<V> | QuickPickSeparator) =>
              text !== '' && 'value' in row && String(row.value).toLowerCase().includes(needle);
            const listed = text === '' || rows.some(holds);
            // A row whose path holds the text stays listed: the filter alone matches the name and the
            // folder apart, so a whole path typed ("src/auth.ts") would hide the very file.
            // The same rows (the list keeps its active row by identity), flagged in place.
            for (const row of rows) if ('value' in row) row.alwaysShow = holds(row);
            quickPick.items = listed
              ? rows
              : [
                  ...rows,
                  { type: 'separator', label: 'typed' },
                  { label: text, description: 'as typed', alwaysShow: true, value: typed(text) },
                ];
          }
        : undefined,
    });
    return chosen?.value;
  }

  input({ title, prompt, value, validate }: InputRequest): Promise<string | undefined> {
    return this.quickInput.input({ title, prompt, value, validateInput: async (text) => validate(text) });
  }

  info(message: string): void {
    void this.messages.info(message);
  }
}
