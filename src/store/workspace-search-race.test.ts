/**
 * file.search on a real directory while an attacker in the workspace (a build script, a test the
 * agent runs) swaps a directory the search has checked for a symlink to a secret directory outside
 * (~/.config/gh). Whatever ripgrep read there, no line of it reaches the agent.
 *
 * ripgrep is run through a wrapper (the mock below) that can run a shell command just before and
 * just after the real ripgrep: the attacker's moves at the worst moments, deterministically — after
 * the path guard checked the directory, and before the results are checked again.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import * as ripgrep from '@vscode/ripgrep';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchOptions } from '../families/file/port.js';
import { WorkspaceFiles } from './workspace-files.js';

vi.mock('@vscode/ripgrep', async (importOriginal) => {
  const { rgPath } = await importOriginal<typeof import('@vscode/ripgrep')>();
  const fs = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = fs.mkdtempSync(join(tmpdir(), 'openspace-rg-wrapper-'));
  const wrapper = join(dir, 'rg');
  fs.writeFileSync(
    wrapper,
    '#!/bin/sh\n' +
      'if [ -n "$OPENSPACE_TEST_BEFORE_RG" ]; then sh -c "$OPENSPACE_TEST_BEFORE_RG"; fi\n' +
      `"${rgPath}" "$@"\nstatus=$?\n` +
      'if [ -n "$OPENSPACE_TEST_AFTER_RG" ]; then sh -c "$OPENSPACE_TEST_AFTER_RG"; fi\n' +
      'exit $status\n',
    { mode: 0o755 },
  );
  return { rgPath: wrapper, realRgPath: rgPath, wrapperDir: dir };
});
const { realRgPath, wrapperDir } = ripgrep as unknown as { realRgPath: string; wrapperDir: string };
afterAll(() => rmSync(wrapperDir, { recursive: true, force: true }));

const CANARY = 'SWAP_CANARY_TOKEN';
const search = (files: WorkspaceFiles, query: string, options: Partial<SearchOptions> = {}) =>
  files.search({ query, path: '', isRegex: false, caseSensitive: false, maxResults: 1000, ...options });

describe.skipIf(process.platform === 'win32')('search through a directory swapped for a symlink (disk)', () => {
  let base: string;
  let root: string;
  let secrets: string;
  let files: WorkspaceFiles;
  const abs = (rel: string) => nodePath.join(root, ...rel.split('/'));
  const sh = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  /** Shell commands: `dir` becomes a link to `target`, and back to the directory it was. */
  const toLink = (target: string) => `mv ${sh(abs('dir'))} ${sh(abs('dir.real'))} && ln -s ${sh(target)} ${sh(abs('dir'))}`;
  const toDirectory = () => `rm ${sh(abs('dir'))} && mv ${sh(abs('dir.real'))} ${sh(abs('dir'))}`;

  /** Search with `before` and `after` run around ripgrep. */
  async function searchAround(moves: { before?: string; after?: string }, options: Partial<SearchOptions>) {
    process.env.OPENSPACE_TEST_BEFORE_RG = moves.before ?? '';
    process.env.OPENSPACE_TEST_AFTER_RG = moves.after ?? '';
    try {
      return await search(files, 'oauth_token', options);
    } finally {
      delete process.env.OPENSPACE_TEST_BEFORE_RG;
      delete process.env.OPENSPACE_TEST_AFTER_RG;
    }
  }

  beforeEach(async () => {
    base = realpathSync(mkdtempSync(nodePath.join(os.tmpdir(), 'openspace-swap-')));
    root = nodePath.join(base, 'ws');
    secrets = nodePath.join(base, 'gh');
    mkdirSync(abs('dir'), { recursive: true });
    mkdirSync(secrets);
    writeFileSync(nodePath.join(secrets, 'hosts.yml'), `github.com:\n  oauth_token: ${CANARY}\n`);
    // The same name inside, other lines: what a check that looks only at paths would be fooled by.
    writeFileSync(abs('dir/hosts.yml'), 'github.com:\n  oauth_token: (none here)\n');
    writeFileSync(abs('dir/notes.txt'), 'oauth_token is documented here\n');
    mkdirSync(abs('secrets'));
    writeFileSync(abs('secrets/hosts.yml'), `oauth_token: ${CANARY} (a sensitive directory inside)\n`);
    files = await WorkspaceFiles.create({ fs: nodeFs, root, kind: 'disk' });
  });
  afterEach(async () => {
    await files.dispose();
    rmSync(base, { recursive: true, force: true });
  });

  it('is not vacuous: unswapped, the directory is searched; ripgrep alone, handed the swapped one, reads the secret', async () => {
    const { matches } = await searchAround({}, { path: 'dir' });
    expect(matches.map((m) => `${m.path}:${m.line}`)).toEqual(['dir/hosts.yml:2', 'dir/notes.txt:1']);
    execFileSync('sh', ['-c', toLink(secrets)]);
    expect(execFileSync(realRgPath, ['--no-config', 'oauth_token', 'dir'], { cwd: root, encoding: 'utf8' })).toContain(CANARY);
  });

  it.each([
    // ripgrep follows a link given as where to search…
    ['the search directory', { path: 'dir' }],
    // …and no link it meets on its walk (no --follow): the swap must come while it is inside.
    ['a directory below the one searched', { path: '' }],
  ])('%s swapped after the path guard checked it: nothing from outside is returned', async (_what, options) => {
    const result = await searchAround({ before: toLink(secrets) }, options);
    expect(nodeFs.lstatSync(abs('dir')).isSymbolicLink()).toBe(true); // the swap happened
    expect(JSON.stringify(result)).not.toContain(CANARY);
    expect(result.matches.filter((m) => m.path.startsWith('dir/'))).toEqual([]);
  });

  it('swapped back before the results are checked: lines read outside are not passed off as the file inside', async () => {
    const result = await searchAround({ before: toLink(secrets), after: toDirectory() }, { path: 'dir' });
    expect(nodeFs.lstatSync(abs('dir')).isDirectory()).toBe(true); // and back
    expect(JSON.stringify(result)).not.toContain(CANARY);
    // dir/hosts.yml is in the workspace again, but its line 2 there is not what ripgrep read.
    expect(result.matches).toEqual([]);
  });

  it('swapped for a link to a sensitive directory inside: its lines are not returned under the link’s name', async () => {
    const result = await searchAround({ before: toLink(abs('secrets')) }, { path: 'dir' });
    expect(JSON.stringify(result)).not.toContain(CANARY);
    expect(result.matches).toEqual([]);
  });

  it('swapped back and forth by another process for a while: the secret never appears', async () => {
    // Many files on both sides, so that ripgrep is inside the directory for a while each time.
    for (let i = 0; i < 200; i++) {
      writeFileSync(abs(`dir/f${i}.txt`), `oauth_token inside ${i}\n`);
      writeFileSync(nodePath.join(secrets, `f${i}.txt`), `oauth_token: ${CANARY} ${i}\n`);
    }
    symlinkSync(secrets, abs('dir.link'));
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const end = Date.now() + 600; process.chdir(${JSON.stringify(root)});
         while (Date.now() < end) {
           fs.renameSync('dir', 'dir.real'); fs.renameSync('dir.link', 'dir');
           fs.renameSync('dir', 'dir.link'); fs.renameSync('dir.real', 'dir');
         }`,
      ],
      { stdio: 'inherit' },
    );
    const exited = new Promise<number | null>((resolve) => swapper.on('exit', resolve));
    let running = true;
    void exited.then(() => (running = false));
    const answers: string[] = [];
    let found = 0;
    for (let i = 0; running || i < 2; i++) {
      // The directory may be missing or a link when it is checked: refused, which is fine.
      const result = await searchAround({}, { path: i % 2 === 0 ? '' : 'dir' }).catch((err: unknown) => String(err));
      answers.push(JSON.stringify(result));
      if (typeof result !== 'string') found += result.matches.length;
    }
    expect(await exited).toBe(0);
    expect(answers.length).toBeGreaterThan(5);
    expect(found).toBeGreaterThan(0); // the directory was searched while it was being swapped
    for (const answer of answers) expect(answer).not.toContain(CANARY);
  });
});
