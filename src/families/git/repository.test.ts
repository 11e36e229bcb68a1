import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFilePolicy } from '../../security/file-policy.js';
import { GitRepository } from './repository.js';

const root = mkdtempSync(join(tmpdir(), 'openspace-originals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: root });

describe('where the repository is', () => {
  it('a repository the person makes is seen at once by the next call, after one that found none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openspace-no-repo-'));
    try {
      const repository = new GitRepository(dir, createFilePolicy());
      await expect(repository.status()).rejects.toMatchObject({ code: 'NOT_A_REPOSITORY' });
      execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: dir });
      expect(await repository.status()).toMatchObject({ branch: 'trunk' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the texts behind the change markers (originals)', () => {
  it('reads every file asked, staged or committed, in one go; undefined where there is none', async () => {
    git('init', '-q');
    writeFileSync(join(root, 'a.txt'), 'committed\n');
    writeFileSync(join(root, 'with space ü.txt'), 'naïve — 1\n');
    writeFileSync(join(root, 'crlf.txt'), 'one\ntwo\n');
    writeFileSync(join(root, '.gitattributes'), 'crlf.txt eol=crlf\n');
    git('add', '-A');
    git('commit', '-qm', 'first');
    writeFileSync(join(root, 'a.txt'), 'staged\n');
    writeFileSync(join(root, 'new.txt'), 'only staged\n');
    git('add', 'a.txt', 'new.txt');
    writeFileSync(join(root, 'a.txt'), 'in the editor\n');
    writeFileSync(join(root, 'untracked.txt'), 'nothing behind it\n');

    const repository = new GitRepository(root, createFilePolicy());
    const texts = await repository.originals([
      { path: 'a.txt', ref: 'index' },
      { path: 'a.txt', ref: 'HEAD' },
      { path: 'with space ü.txt', ref: 'HEAD' },
      { path: 'new.txt', ref: 'index' },
      { path: 'new.txt', ref: 'HEAD' },
      { path: 'untracked.txt', ref: 'index' },
      { path: 'crlf.txt', ref: 'HEAD' },
      { path: 'line\nbreak.txt', ref: 'HEAD' },
      { path: 'blob 12', ref: 'HEAD' },
      { path: '.', ref: 'HEAD' },
      { path: 'a.txt', ref: 'index' },
    ]);
    expect(texts).toEqual([
      'staged\n',
      'committed\n',
      'naïve — 1\n',
      'only staged\n',
      undefined,
      undefined,
      'one\ntwo\n',
      undefined,
      undefined,
      undefined,
      'staged\n',
    ]);
    expect(await repository.originals([])).toEqual([]);
  });
});
