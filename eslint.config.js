// The linter: ESLint's and typescript-eslint's recommended rules over every TypeScript and JavaScript
// file we write. One rule is off, for a reason:
// - no-control-regex: the terminal sanitizer, the secret redactor, the dangerous-command check and
//   their tests exist to find control characters (ESC, BEL, NUL, C1) in text; a regular expression
//   naming them is the point, not a slip.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'reports/',
      '**/node_modules/',
      'theia-app/lib/',
      'theia-app/src-gen/',
      'theia-app/gen-*',
      'sim/demo-workspace/',
      'conformance/fixtures/workspace/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'no-control-regex': 'off' },
  },
);
