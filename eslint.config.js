// The linter: ESLint's and typescript-eslint's recommended rules over every TypeScript and JavaScript
// file we write. One rule is off, for a reason:
// - no-control-regex: the terminal sanitizer, the secret redactor, the dangerous-command check and
//   their tests exist to find control characters (ESC, BEL, NUL, C1) in text; a regular expression
//   naming them is the point, not a slip.
//
// The layering (docs/architecture.md) is checked here too: each folder's code may import only the
// folders below it. Tests may import anything they drive.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The top-level folders besides src; src never imports them. */
const OUTSIDE_SRC = ['sim', 'theia-app', 'conformance', 'scenarios', 'ci'];

/** What each folder's code may not import, by folder name. */
const FORBIDDEN = {
  'src/contract': ['families', 'commands', 'hub', 'init', 'lsp', 'models', 'security', 'store', ...OUTSIDE_SRC],
  'src/models': ['commands', 'hub', 'init', 'lsp', 'security', 'store', ...OUTSIDE_SRC],
  'src/security': ['commands', 'hub', 'init', 'lsp', 'models', 'store', ...OUTSIDE_SRC],
  'src/store': ['commands', 'hub', 'init', 'lsp', 'models', ...OUTSIDE_SRC],
  'src/lsp': ['commands', 'hub', 'init', 'models', 'store', ...OUTSIDE_SRC],
  'src/commands': ['hub', 'init', 'lsp', ...OUTSIDE_SRC],
  'src/families': ['hub', 'init', 'lsp', ...OUTSIDE_SRC],
  'src/hub': ['commands', 'init', 'lsp', 'models', 'store', ...OUTSIDE_SRC],
  'src/init': ['commands', 'lsp', 'models', 'store', ...OUTSIDE_SRC],
  sim: ['theia-app', 'conformance', 'scenarios', 'ci'],
  scenarios: ['theia-app', 'ci'],
  conformance: ['theia-app', 'ci'],
};

/**
 * Which parts of a family (src/families/<family>/) a folder may use besides: below the commands, a
 * family's contract (its tools.ts and port.ts); the hub and init, that and the registration list.
 */
const FAMILY_PARTS = {
  'src/models': '[a-z]+/(tools|port)\\.js$',
  'src/security': '[a-z]+/(tools|port)\\.js$',
  'src/store': '[a-z]+/(tools|port)\\.js$',
  'src/lsp': '[a-z]+/(tools|port)\\.js$',
  'src/hub': 'index\\.js$|[a-z]+/(tools|port)\\.js$',
  'src/init': 'index\\.js$|[a-z]+/(tools|port)\\.js$',
};

/**
 * Per folder: a relative import that passes through a forbidden folder, static
 * (no-restricted-imports) or dynamic (`import(…)`, no-restricted-syntax).
 */
const restrict = (files, regex, message) => ({
  files,
  ignores: ['**/*.test.{ts,tsx}'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ regex, message }] }],
    'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`, message }],
  },
});

const layering = [
  ...Object.entries(FORBIDDEN).map(([folder, names]) =>
    restrict(
      [`${folder}/**/*.{ts,tsx}`],
      `^\\.\\.?/(.*/)?(${names.join('|')})/` + (FAMILY_PARTS[folder] ? `|families/(?!${FAMILY_PARTS[folder]})` : ''),
      `${folder} may not import ${names.join(', ')}${FAMILY_PARTS[folder] ? `, nor of a family more than ${FAMILY_PARTS[folder].startsWith('index') ? 'the registration list and ' : ''}its contract` : ''} (the layering in docs/architecture.md).`,
    ),
  ),
  // A family's contract (its tools and its port) is part of the contract: it uses the shared
  // contract and other families' contracts only.
  restrict(
    ['src/families/*/{tools,port}.ts'],
    '^\\.(?!/(tools|port)\\.js$|\\./[a-z]+/(tools|port)\\.js$|\\./\\.\\./contract/)',
    "A family's tools.ts and port.ts import the shared contract and families' tools.ts and port.ts only (the layering in docs/architecture.md).",
  ),
  // The Theia extension uses src through its public entries only (src/browser.ts, and on its Node
  // side src/node.ts too), and none of sim, conformance, scenarios and ci.
  restrict(
    ['theia-app/openspace/src/{browser,common}/**/*.{ts,tsx}'],
    '^(\\.\\./)+(sim|conformance|scenarios|ci|src/(?!browser\\.js$))',
    'The browser and common code of the Theia extension import src/browser.ts only of ours (the layering in docs/architecture.md).',
  ),
  restrict(
    ['theia-app/openspace/src/node/**/*.{ts,tsx}'],
    '^(\\.\\./)+(sim|conformance|scenarios|ci|src/(?!(browser|node)\\.js$))',
    "The Theia extension's Node code imports src/browser.ts and src/node.ts only of ours (the layering in docs/architecture.md).",
  ),
];

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
  ...layering,
);
