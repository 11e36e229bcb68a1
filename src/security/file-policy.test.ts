import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createFilePolicy,
  DEFAULT_PROTECTED_PATTERNS,
  DEFAULT_SENSITIVE_PATTERNS,
  normalizeRelativePath,
  validateFilePattern,
  validateFilePatterns,
} from './file-policy.js';
import { CODE_RUNNING_PATHS, CODE_RUNNING_PATTERNS } from './code-running-paths.js';

const policy = createFilePolicy();

/** [path, sensitive pattern or undefined, protected pattern or undefined] */
const table: [string, string | undefined, string | undefined][] = [
  // .env and .env.*
  ['.env', '.env', undefined],
  ['sub/.env', '.env', undefined],
  ['a/b/c/.env', '.env', undefined],
  ['.ENV', '.env', undefined],
  ['.Env', '.env', undefined],
  ['.env.local', '.env.*', undefined],
  ['.env.production', '.env.*', undefined],
  ['apps/web/.env.development.local', '.env.*', undefined],
  ['.ENV.LOCAL', '.env.*', undefined],
  ['.env.example', '.env.*', undefined], // decided: sensitive, as in the spec's denylist
  ['.envrc', '.envrc', '.envrc'], // decided: it often exports tokens, and direnv runs it
  ['infra/.ENVRC', '.envrc', '.envrc'],
  ['.envrc.bak', undefined, undefined],
  ['environment.ts', undefined, undefined],
  ['src/env.ts', undefined, undefined],
  ['envs/readme.md', undefined, undefined],
  ['env', undefined, undefined],
  ['.env-backup', undefined, undefined],
  // *.env: dotenv files named by environment
  ['my.env', '*.env', undefined],
  ['prod.env', '*.env', undefined],
  ['config/prod.env', '*.env', undefined],
  ['deploy/Staging.ENV', '*.env', undefined],
  ['prod.env.ts', undefined, undefined],
  ['prod.env/readme.md', undefined, undefined], // like `.env`: the name itself, not a directory's contents
  ['myenv', undefined, undefined],
  ['.env/lib/site.py', undefined, undefined], // a virtualenv called .env: only the name itself
  // .git
  ['.git', '.git/**', '.git/**'],
  ['.git/config', '.git/**', '.git/**'],
  ['.git/objects/ab/cdef0123', '.git/**', '.git/**'],
  ['sub/.git/config', '.git/**', '.git/**'],
  ['vendor/lib/.git/HEAD', '.git/**', '.git/**'],
  ['.GIT/config', '.git/**', '.git/**'],
  ['.github/workflows/x.yml', undefined, '.github/workflows/**'],
  ['.github/CODEOWNERS', undefined, undefined], // decided: only workflows run
  ['.github/ISSUE_TEMPLATE/bug.md', undefined, undefined],
  ['.gitignore', undefined, undefined],
  ['.gitattributes', undefined, undefined],
  ['src/.git-blame-ignore-revs', undefined, undefined], // decided: a tracked file, not .git
  ['.gitmodules', undefined, undefined],
  ['git/config', undefined, undefined],
  // SSH keys
  ['id_rsa', 'id_rsa', undefined],
  ['.ssh/id_rsa', 'id_rsa', undefined],
  ['home/.ssh/ID_RSA', 'id_rsa', undefined],
  ['id_dsa', 'id_dsa', undefined],
  ['id_ecdsa', 'id_ecdsa', undefined],
  ['deploy/id_ed25519', 'id_ed25519', undefined],
  ['id_rsa.pub', undefined, undefined],
  ['id_ed25519.pub', undefined, undefined],
  ['keys/pubkey.pub', undefined, undefined],
  ['docs/id_rsa_setup.md', undefined, undefined],
  // *.pem, *.key
  ['cert.pem', '*.pem', undefined],
  ['tls/server.PEM', '*.pem', undefined],
  ['.pem', '*.pem', undefined],
  ['server.key', '*.key', undefined],
  ['a/b/private.KEY', '*.key', undefined],
  ['my.key.txt', undefined, undefined],
  ['keys.ts', undefined, undefined],
  ['monkey', undefined, undefined],
  ['pem/readme.md', undefined, undefined],
  // credentials and secrets
  ['credentials.json', 'credentials.json', undefined],
  ['config/gcp/Credentials.JSON', 'credentials.json', undefined],
  ['credentials.json.bak', undefined, undefined],
  ['my-credentials.json', undefined, undefined],
  ['secrets.yaml', 'secrets.*', undefined],
  ['config/secrets.json', 'secrets.*', undefined],
  ['src/secrets.ts', 'secrets.*', undefined], // decided: any extension
  ['secrets', '**/secrets/**', undefined], // the directory itself
  ['secrets/db.txt', '**/secrets/**', undefined],
  ['deploy/secrets/prod/token', '**/secrets/**', undefined],
  ['SECRETS/x', '**/secrets/**', undefined],
  ['secretsmanager/x.ts', undefined, undefined],
  ['my-secrets/x', undefined, undefined],
  ['.aws/credentials', '.aws/credentials', undefined],
  ['home/user/.aws/credentials', '.aws/credentials', undefined],
  ['.aws/config', undefined, undefined],
  ['credentials', undefined, undefined],
  // protected directories
  ['node_modules', undefined, 'node_modules/**'],
  ['node_modules/x/index.js', undefined, 'node_modules/**'],
  ['packages/a/node_modules/b/package.json', undefined, 'node_modules/**'],
  ['node_modules_backup/x', undefined, undefined],
  ['my_node_modules/x', undefined, undefined],
  ['.theia/settings.json', undefined, '.theia/**'],
  ['sub/.theia/launch.json', undefined, '.theia/**'],
  ['.openspace/state.json', undefined, '.openspace/**'],
  ['.OpenSpace/x', undefined, '.openspace/**'],
  ['.openspaces/x', undefined, undefined],
  ['theia/x', undefined, undefined],
  // code-running paths (code-running-paths.ts): hooks, tasks, CI, dev containers
  ['.git/hooks/pre-commit', '.git/**', '.git/**'],
  ['.vscode', undefined, '.vscode/**'],
  ['.vscode/tasks.json', undefined, '.vscode/**'],
  ['.vscode/settings.json', undefined, '.vscode/**'],
  ['apps/web/.VSCode/launch.json', undefined, '.vscode/**'],
  ['.husky/pre-commit', undefined, '.husky/**'],
  ['.husky/_/husky.sh', undefined, '.husky/**'],
  ['packages/a/.husky/pre-push', undefined, '.husky/**'],
  ['.github/workflows', undefined, '.github/workflows/**'],
  ['.github/workflows/ci.yml', undefined, '.github/workflows/**'],
  ['sub/.github/workflows/release.yaml', undefined, '.github/workflows/**'],
  ['.devcontainer/devcontainer.json', undefined, '.devcontainer/**'],
  ['.devcontainer/Dockerfile', undefined, '.devcontainer/**'],
  ['.npmrc', undefined, '.npmrc'],
  ['web/.npmrc', undefined, '.npmrc'],
  ['.theia/tasks.json', undefined, '.theia/**'],
  ['.vscode-test/x', undefined, undefined],
  ['husky/pre-commit', undefined, undefined],
  ['workflows/ci.yml', undefined, undefined],
  ['devcontainer.json', undefined, undefined],
  ['.npmrc.example', undefined, undefined],
  // both
  ['node_modules/pkg/test/fixtures/server.key', '*.key', 'node_modules/**'],
  ['.git/hooks/.env', '.env', '.git/**'],
  // ordinary files
  ['src/index.ts', undefined, undefined],
  ['README.md', undefined, undefined],
  ['package.json', undefined, undefined],
  // path normalisation
  ['./.env', '.env', undefined],
  ['a\\b\\.env', '.env', undefined],
  ['a//b/./.git/config', '.git/**', '.git/**'],
  ['a/../.env', '.env', undefined],
  ['.git/', '.git/**', '.git/**'],
  ['', undefined, undefined],
  // whitespace, trailing dots, Unicode normalisation (names are judged as Windows and macOS would open them)
  ['.env ', '.env', undefined],
  [' .env', '.env', undefined],
  ['.env\t', '.env', undefined],
  ['.env.', '.env', undefined],
  ['.env...', '.env', undefined],
  ['ID_RSA.', 'id_rsa', undefined],
  ['config/credentials.json ', 'credentials.json', undefined],
  ['.git./config', '.git/**', '.git/**'],
  ['.git /config', '.git/**', '.git/**'],
  ['node_modules./x.js', undefined, 'node_modules/**'],
  ['.git/.. /config', '.git/**', '.git/**'], // ".. " is a name on Linux, never ".."
  ['.git/. /config', '.git/**', '.git/**'],
  ['".env"', undefined, undefined], // quotes are part of the name: a different file
  ['.e\u0301nv', undefined, undefined],
];

describe('file policy: defaults', () => {
  it('has at least 60 table rows', () => {
    expect(table.length).toBeGreaterThanOrEqual(60);
  });

  it.each(table)('%j → sensitive %j, protected %j', (path, sensitive, prot) => {
    expect(policy.isSensitive(path)).toBe(sensitive);
    expect(policy.isProtected(path)).toBe(prot);
  });

  it('exports the default lists, frozen', () => {
    expect(DEFAULT_SENSITIVE_PATTERNS).toContain('.git/**');
    expect(DEFAULT_SENSITIVE_PATTERNS).toHaveLength(17);
    expect(DEFAULT_SENSITIVE_PATTERNS).toEqual(expect.arrayContaining(['.env', '.env.*', '*.env', '.envrc']));
    expect(DEFAULT_SENSITIVE_PATTERNS).toContain('.openspace/audit.ndjson');
    expect(createFilePolicy().isSensitive('.openspace/snapshots/src/a.ts/3')).toBe('.openspace/snapshots/**');
    expect(DEFAULT_PROTECTED_PATTERNS.slice(0, 4)).toEqual(['.git/**', 'node_modules/**', '.theia/**', '.openspace/**']);
    expect(DEFAULT_PROTECTED_PATTERNS).toEqual(expect.arrayContaining([...CODE_RUNNING_PATTERNS]));
    expect(new Set(DEFAULT_PROTECTED_PATTERNS).size).toBe(DEFAULT_PROTECTED_PATTERNS.length);
    expect(Object.isFrozen(DEFAULT_SENSITIVE_PATTERNS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_PROTECTED_PATTERNS)).toBe(true);
  });
});

describe('file policy: code-running paths are write-protected', () => {
  it.each([...CODE_RUNNING_PATHS])('%s (and what is below a directory), also in a nested project, is protected', (path) => {
    const below = CODE_RUNNING_PATTERNS.includes(`${path}/**`) ? [`${path}/x`, `${path}/a/b.sh`, `packages/app/${path}/x`] : [];
    for (const p of [path, `packages/app/${path}`, path.toUpperCase(), ...below]) expect(policy.isProtected(p), p).toBeDefined();
    // A user's own patterns cannot lift it.
    expect(createFilePolicy({ protectedPatterns: ['dist/**'] }).isProtected(path)).toBeDefined();
  });

  it('names every code-running path as a directory pattern or a file pattern', () => {
    for (const path of CODE_RUNNING_PATHS)
      expect(
        [path, `${path}/**`].some((p) => CODE_RUNNING_PATTERNS.includes(p)),
        path,
      ).toBe(true);
  });
});

describe('file policy: user patterns', () => {
  const custom = createFilePolicy({
    sensitivePatterns: ['.envrc', '*.tfstate', 'config/private/**', 'vault.*.yml', 'notes/'],
    protectedPatterns: ['dist/**', 'package-lock.json'],
  });

  it.each([
    ['.envrc', '.envrc'],
    ['infra/.envrc', '.envrc'],
    ['terraform.tfstate', '*.tfstate'],
    ['infra/prod/TERRAFORM.TFSTATE', '*.tfstate'],
    ['config/private/a.txt', 'config/private/**'],
    ['apps/x/config/private/a.txt', 'config/private/**'], // patterns float to any depth
    ['config/private', 'config/private/**'],
    ['vault.prod.yml', 'vault.*.yml'],
    ['notes/todo.md', 'notes/'],
    ['notes', 'notes/'],
    ['config/public/a.txt', undefined],
    ['terraform.tfstate.backup', undefined],
  ])('sensitive %j → %j', (path, expected) => {
    expect(custom.isSensitive(path)).toBe(expected);
  });

  it('extends the defaults, never removes one', () => {
    expect(custom.isSensitive('.env')).toBe('.env');
    expect(custom.isSensitive('sub/.git/config')).toBe('.git/**');
    expect(custom.isProtected('node_modules/a')).toBe('node_modules/**');
    expect(custom.isProtected('dist/app.js')).toBe('dist/**');
    expect(custom.isProtected('web/package-lock.json')).toBe('package-lock.json');
    expect(custom.isProtected('terraform.tfstate')).toBeUndefined(); // sensitive patterns do not protect
    expect(custom.isSensitive('dist/app.js')).toBeUndefined(); // nor protected ones hide
    // Repeating a default does not change anything.
    const repeated = createFilePolicy({ sensitivePatterns: ['.env', '.env'] });
    expect(repeated.isSensitive('x/.env')).toBe('.env');
  });

  it('user patterns match whatever the Unicode normalisation of name and pattern', () => {
    const nfc = createFilePolicy({ sensitivePatterns: ['r\u00e9sum\u00e9.pdf'] });
    const nfd = createFilePolicy({ sensitivePatterns: ['re\u0301sume\u0301.pdf'] });
    for (const pol of [nfc, nfd]) {
      expect(pol.isSensitive('docs/re\u0301sume\u0301.pdf')).toBeDefined();
      expect(pol.isSensitive('docs/r\u00e9sum\u00e9.pdf')).toBeDefined();
    }
  });

  it('user patterns are case-insensitive too', () => {
    expect(custom.isSensitive('CONFIG/Private/A.TXT')).toBe('config/private/**');
  });

  it('rejects invalid user patterns', () => {
    expect(() => createFilePolicy({ sensitivePatterns: [''] })).toThrow(/empty/);
    expect(() => createFilePolicy({ protectedPatterns: ['/etc/passwd'] })).toThrow(/absolute/);
    expect(() => createFilePolicy({ sensitivePatterns: ['a\0b'] })).toThrow(/NUL/);
  });
});

describe('file policy: validator', () => {
  it.each([
    ['', 'pattern is empty'],
    ['   ', 'pattern is empty'],
    ['a\0b', 'pattern contains a NUL character'],
    ['/etc/passwd', 'pattern is an absolute path; patterns are workspace-relative'],
    ['\\\\server\\share', 'pattern is an absolute path; patterns are workspace-relative'],
    ['C:\\Users\\x\\.env', 'pattern is an absolute path; patterns are workspace-relative'],
    ['c:/x', 'pattern is an absolute path; patterns are workspace-relative'],
    ['~/.ssh/id_rsa', 'pattern is an absolute path; patterns are workspace-relative'],
    ['../outside/**', "pattern contains a '..' segment"],
    [42, 'pattern must be a string'],
  ] as [unknown, string][])('%j is invalid: %s', (pattern, reason) => {
    expect(validateFilePattern(pattern)).toBe(reason);
  });

  it.each(['.envrc', '*.tfstate', 'config/**', './local/*.json', '~backup', 'a..b', '**/x/**'])('%j is valid', (p) => {
    expect(validateFilePattern(p)).toBeUndefined();
  });

  it('validates lists with indices', () => {
    expect(validateFilePatterns(['ok', '', '/abs'])).toEqual([
      'pattern 1 (""): pattern is empty',
      'pattern 2 ("/abs"): pattern is an absolute path; patterns are workspace-relative',
    ]);
    expect(validateFilePatterns('x')).toEqual(['patterns must be an array of strings']);
    expect(validateFilePatterns([])).toEqual([]);
  });

  it('normalises paths', () => {
    expect(normalizeRelativePath('./a//b/./c/')).toBe('a/b/c');
    expect(normalizeRelativePath('a\\b\\..\\c')).toBe('a/c');
    expect(normalizeRelativePath('../x')).toBe('x');
    expect(policy.isSensitive('../.git/config')).toBe('.git/**');
  });
});

describe('file policy: properties', () => {
  const segment = fc.oneof(
    fc.constantFrom(
      '.env',
      '.env.local',
      '.envrc',
      '.git',
      '.github',
      'id_rsa',
      'id_ed25519',
      'cert.pem',
      'server.key',
      'credentials.json',
      'secrets',
      'secrets.yml',
      '.aws',
      'credentials',
      'node_modules',
      '.theia',
      '.openspace',
      'src',
      'index.ts',
      'Config',
      'my.key.txt',
    ),
    fc.string({ unit: fc.constantFrom('a', 'B', 'e', 'N', 'v', '.', '_', '-', 'k', 'Y', '1'), minLength: 1, maxLength: 8 }),
  );
  const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
  const flips = fc.array(fc.boolean(), { minLength: 64, maxLength: 64 });
  const recase = (s: string, f: boolean[]) => Array.from(s, (ch, i) => (f[i % f.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');
  const custom = createFilePolicy({ sensitivePatterns: ['*.tfstate', 'Config/**'], protectedPatterns: ['dist/**'] });

  it('the verdict does not depend on letter case', () => {
    fc.assert(
      fc.property(path, flips, (p, f) => {
        const q = recase(p, f);
        for (const pol of [policy, custom]) {
          expect(pol.isSensitive(q)).toBe(pol.isSensitive(p));
          expect(pol.isProtected(q)).toBe(pol.isProtected(p));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('anything below a .git directory is sensitive and protected, at any depth', () => {
    fc.assert(
      // Below .git: no "." or ".." after it, which would climb back out of it.
      fc.property(
        fc.array(segment, { maxLength: 3 }),
        fc.array(
          segment.filter((s) => s !== '.' && s !== '..'),
          { maxLength: 3 },
        ),
        (before, after) => {
          const p = [...before, '.git', ...after].join('/');
          expect(policy.isSensitive(p)).toBeDefined();
          expect(policy.isProtected(p)).toBeDefined();
        },
      ),
    );
  });
});
