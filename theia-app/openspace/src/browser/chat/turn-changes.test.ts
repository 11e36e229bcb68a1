/** filesBefore: OpenCode's edit diffs undone on the file as it is now, last first; a file that moved on is named, not guessed. */
import { createTwoFilesPatch } from 'diff';
import { expect, it } from 'vitest';
import { filesBefore } from './turn-changes.js';

const patch = (before: string, after: string) => createTwoFilesPatch('/w/a.ts', '/w/a.ts', before, after);

it('undoes two edits of one file in order, keeps an ACP change as told, and names a file changed since', async () => {
  const v1 = 'let a = 1;\nlet b = 2;\n';
  const v2 = 'let a = 10;\nlet b = 2;\n';
  const v3 = 'let a = 10;\nlet b = 20;\n';
  const disk: Record<string, string | null> = { 'a.ts': v3, 'moved.ts': 'someone else wrote this\n', 'gone.ts': null };
  const { files, changedSince } = await filesBefore(
    [
      { path: 'a.ts', patches: [patch(v1, v2), patch(v2, v3)] },
      { path: 'b.ts', before: null },
      { path: 'moved.ts', patches: [patch('x\n', 'y\n')] },
      { path: 'gone.ts', patches: [patch('x\n', 'y\n')] },
    ],
    async (path) => disk[path] ?? null,
  );
  expect(files).toEqual([
    { path: 'a.ts', before: v1 },
    { path: 'b.ts', before: null },
  ]);
  expect(changedSince).toEqual(['moved.ts', 'gone.ts']);
});
