/**
 * TurnChanges: what an agent's own tool calls changed, with each file as it was before — read when
 * the call is first told of, or, where the agent had already written, rebuilt from the call's diff
 * only where that is certain.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCall } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TurnChanges } from './acp-changes.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync('/var/tmp/openspace-acp-changes-');
  mkdirSync(join(root, 'src'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const call = (id: string, fields: Partial<ToolCall>): ToolCall => ({ toolCallId: id, title: id, status: 'completed', ...fields });

it('an edit told before it ran: the file as it was; a file only read, or outside the workspace, is no change', async () => {
  writeFileSync(join(root, 'src/a.ts'), 'let x = 1;\n');
  writeFileSync(join(root, 'src/b.ts'), 'read only\n');
  const changes = new TurnChanges(root);
  const edit = call('1', { locations: [{ path: join(root, 'src/a.ts') }], rawInput: { path: 'src/b.ts', file_path: '/etc/hostname' } });
  changes.seen(edit);
  await new Promise((r) => setTimeout(r, 20));
  writeFileSync(join(root, 'src/a.ts'), 'let x = 2;\n');
  expect(await changes.settle(edit)).toEqual([{ path: 'src/a.ts', before: 'let x = 1;\n' }]);
});

it('an edit that ran before it was told: rebuilt from its diff where its new text is once in the file, else not offered', async () => {
  writeFileSync(join(root, 'src/a.ts'), 'a();\nb = 2;\nc();\n');
  const changes = new TurnChanges(root);
  const file = join(root, 'src/a.ts');
  const edit = call('1', { content: [{ type: 'diff', path: file, oldText: 'b = 1;', newText: 'b = 2;' }] });
  expect(await changes.settle(edit)).toEqual([{ path: 'src/a.ts', before: 'a();\nb = 1;\nc();\n' }]);

  writeFileSync(file, 'x();\nx();\n');
  const twice = call('2', { content: [{ type: 'diff', path: file, oldText: 'y();', newText: 'x();' }] });
  expect(await changes.settle(twice)).toEqual([]);
  // A whole-file write says no old text even over a file that existed: it cannot be told from a new file.
  const write = call('3', { content: [{ type: 'diff', path: file, oldText: null, newText: 'x();\nx();\n' }] });
  expect(await changes.settle(write)).toEqual([]);
});

it('a file read while the agent was writing it (truncated, not yet written): rebuilt from the diff, not reviewed as emptied', async () => {
  const file = join(root, 'src/a.ts');
  writeFileSync(file, '');
  const changes = new TurnChanges(root);
  const whole = 'red\nkeep\nred\n';
  const edit = call('1', { content: [{ type: 'diff', path: file, oldText: whole, newText: whole.replaceAll('red', 'blue') }] });
  changes.seen(edit);
  await new Promise((r) => setTimeout(r, 20));
  writeFileSync(file, whole.replaceAll('red', 'blue'));
  expect(await changes.settle(edit)).toEqual([{ path: 'src/a.ts', before: whole }]);
});

it('a file created, a file too large or not text', async () => {
  const changes = new TurnChanges(root);
  const created = call('1', { rawInput: { file_path: join(root, 'src/new.ts') } });
  changes.seen(created);
  const big = call('2', { rawInput: { path: 'src/big.bin' } });
  writeFileSync(join(root, 'src/big.bin'), Buffer.from([1, 0, 2]));
  changes.seen(big);
  await new Promise((r) => setTimeout(r, 20));
  writeFileSync(join(root, 'src/new.ts'), 'new\n');
  writeFileSync(join(root, 'src/big.bin'), Buffer.from([1, 0, 3]));
  expect(await changes.settle(created)).toEqual([{ path: 'src/new.ts', before: null }]);
  expect(await changes.settle(big)).toEqual([]);
});

it('a file the agent writes as soon as it has told of the call: read as it was when told, not after the write', async () => {
  const changes = new TurnChanges(root);
  const edited = join(root, 'src/a.ts');
  writeFileSync(edited, 'one\n');
  for (let i = 0; i < 20; i++) {
    const created = call(`new-${i}`, { rawInput: { file_path: join(root, `src/new-${i}.ts`) } });
    const edit = call(`edit-${i}`, { locations: [{ path: edited }] });
    changes.seen(created);
    changes.seen(edit);
    writeFileSync(join(root, `src/new-${i}.ts`), 'new\n');
    writeFileSync(edited, `${i}\n`);
    expect(await changes.settle(created)).toEqual([{ path: `src/new-${i}.ts`, before: null }]);
    expect(await changes.settle(edit)).toEqual([{ path: 'src/a.ts', before: i === 0 ? 'one\n' : `${i - 1}\n` }]);
  }
});
