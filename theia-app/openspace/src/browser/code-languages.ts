import { injectable } from '@theia/core/shared/inversify';
import type { LanguageGrammarDefinitionContribution, TextmateRegistry } from '@theia/monaco/lib/browser/textmate';
import type * as monaco from '@theia/monaco-editor-core';
import javascript from 'tm-grammars/grammars/javascript.json';
import jsx from 'tm-grammars/grammars/jsx.json';
import tsx from 'tm-grammars/grammars/tsx.json';
import typescript from 'tm-grammars/grammars/typescript.json';

/**
 * How the languages OpenSpace's servers handle look in Theia's editors, which without a plugin
 * host know none of them: their names, their colouring (the TextMate grammars VS Code uses, from
 * `tm-grammars`), and their comments and brackets.
 */
interface KnownLanguage {
  /** What Theia shows (the status bar, "Change Language Mode"). */
  name: string;
  grammar: { scopeName: string };
}

const LANGUAGES: Record<string, KnownLanguage> = {
  typescript: { name: 'TypeScript', grammar: typescript },
  typescriptreact: { name: 'TypeScript JSX', grammar: tsx },
  javascript: { name: 'JavaScript', grammar: javascript },
  javascriptreact: { name: 'JavaScript JSX', grammar: jsx },
};

export const languageName = (id: string): string => LANGUAGES[id]?.name ?? id;

/** Comments (Ctrl+/), bracket matching and auto-closing pairs, as VS Code has them for these languages. */
export function languageConfiguration(id: string): monaco.languages.LanguageConfiguration | undefined {
  if (!LANGUAGES[id]) return undefined;
  return {
    comments: { lineComment: '//', blockComment: ['/*', '*/'] },
    brackets: [
      ['{', '}'],
      ['[', ']'],
      ['(', ')'],
    ],
    autoClosingPairs: [
      { open: '{', close: '}' },
      { open: '[', close: ']' },
      { open: '(', close: ')' },
      { open: "'", close: "'", notIn: ['string', 'comment'] },
      { open: '"', close: '"', notIn: ['string'] },
      { open: '`', close: '`', notIn: ['string', 'comment'] },
      { open: '/**', close: ' */', notIn: ['string'] },
    ],
    surroundingPairs: [
      { open: '{', close: '}' },
      { open: '[', close: ']' },
      { open: '(', close: ')' },
      { open: "'", close: "'" },
      { open: '"', close: '"' },
      { open: '`', close: '`' },
    ],
  };
}

@injectable()
export class CodeGrammars implements LanguageGrammarDefinitionContribution {
  registerTextmateLanguage(registry: TextmateRegistry): void {
    for (const [id, { grammar }] of Object.entries(LANGUAGES)) {
      registry.registerTextmateGrammarScope(grammar.scopeName, {
        getGrammarDefinition: async () => ({ format: 'json', content: grammar }),
      });
      registry.mapLanguageIdToTextmateGrammar(id, grammar.scopeName);
    }
  }
}
