/**
 * docs/tools.md is generated from the catalog (ci/tools-doc.ts): it must be exactly what the
 * catalog gives now, so a tool added or changed without `npm run docs:tools` fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOLS } from '../src/families/index.js';
import { defineTool, familyOf } from '../src/contract/index.js';
import { TOOLS_DOC_PATH, renderToolsDoc } from '../ci/tools-doc.js';

describe('docs/tools.md', () => {
  const onDisk = readFileSync(TOOLS_DOC_PATH, 'utf8');

  it('is what the catalog gives', () => {
    expect(onDisk, 'docs/tools.md is stale: run `npm run docs:tools` and commit docs/tools.md').toBe(renderToolsDoc());
  });

  it('names every tool of the catalog, under its family', () => {
    for (const tool of TOOLS) {
      expect(onDisk, `${tool.name} is missing: run \`npm run docs:tools\``).toContain(`### \`${tool.name}\``);
      expect(onDisk).toContain(`## ${familyOf(tool.name)}\n`);
    }
  });
});

describe('renderToolsDoc', () => {
  const tool = defineTool({
    name: 'openspace.board.camera.set',
    title: 'Set *Camera*',
    description: 'Move the view: x | y, `a | b` stays code, ~/.ssh is not struck through, [not a link].',
    input: z.strictObject({
      x: z.number().min(-10).max(10).describe('Left edge'),
      shape: z.strictObject({ kind: z.enum(['box', 'ellipse']).describe('What it means') }).optional(),
      ops: z
        .array(
          z.discriminatedUnion('type', [
            z.strictObject({ type: z.literal('insert'), line: z.number().int().min(1).describe('Before this line') }),
            z.strictObject({ type: z.literal('append'), content: z.string() }),
          ]),
        )
        .optional(),
    }),
    output: z.object({}),
    budget: 'complex',
    effect: 'write',
    session: {},
  });
  const page = renderToolsDoc([tool]);

  it('puts a tool under the segment after openspace., with its budget and effect', () => {
    expect(familyOf(tool.name)).toBe('board');
    expect(page).toContain(
      '## board\n\n### `openspace.board.camera.set`\n\n**Set \\*Camera\\*** · budget: complex (500 ms) · effect: write',
    );
  });

  it('keeps descriptions plain text, code spans as they are', () => {
    expect(page).toContain('Move the view: x | y, `a | b` stays code, \\~/.ssh is not struck through, \\[not a link\\].');
  });

  it('gives one row per field, nested fields and the forms of a tagged list included', () => {
    expect(page).toContain('| `x` | `number ≥ -10, ≤ 10` | yes | Left edge |');
    expect(page).toContain('| `shape` | `object` |  |  |');
    expect(page).toContain('| `shape.kind` | `"box" \\| "ellipse"` | yes | What it means |');
    expect(page).toContain('| `ops` | `object[]` |  | Each item is one of the forms in the rows below |');
    expect(page).toContain('| `ops[]` | `{type: "insert", line: integer ≥ 1}` |  | line: Before this line |');
    expect(page).toContain('| `ops[]` | `{type: "append", content: string}` |  |  |');
  });
});
