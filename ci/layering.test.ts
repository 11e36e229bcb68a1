/**
 * The layering eslint.config.js enforces: each folder's code imports only the folders below it
 * (docs/architecture.md). Linted here as text at a path inside each folder.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId?.startsWith('no-restricted-')).map((m) => m.message);
}

describe('the layering', () => {
  it.each([
    ['src/contract/new.ts', "import '../security/path-guard.js';"],
    ['src/security/new.ts', "import { lockDir } from '../hub/auth.js';"],
    ['src/security/known-safe/new.ts', "import '../../commands/terminal.js';"],
    ['src/hub/new.ts', "import '../init/agent-files.js';"],
    ['src/store/new.ts', "import '../../sim/ide.js';"],
    ['src/commands/new.ts', "import '../hub/hub.js';"],
    ['sim/new.ts', "import '../conformance/client.js';"],
    ['conformance/new.ts', "import '../ci/theia.js';"],
    ['theia-app/openspace/src/browser/new.ts', "import '../../../../sim/ide.js';"],
    ['conformance/new.ts', "await import('../ci/theia.js');"],
    ['theia-app/openspace/src/browser/chat/new.ts', "import '../../../../../src/contract/index.js';"],
    ['theia-app/openspace/src/common/new.ts', "import '../../../../src/node.js';"],
    ['theia-app/openspace/src/node/new.ts', "import '../../../../src/hub/auth.js';"],
    ['src/contract/new.ts', "import '../families/file/tools.js';"],
    ['src/store/new.ts', "import '../families/index.js';"],
    ['src/store/new.ts', "import '../families/file/commands.js';"],
    ['src/hub/new.ts', "import '../families/terminal/run.js';"],
    ['src/families/file/tools.ts', "import './commands.js';"],
    ['src/families/editor/port.ts', "import '../index.js';"],
    ['src/families/editor/tools.ts', "import '../../store/patch-engine.js';"],
    ['src/families/git/commands.ts', "import '../../hub/hub.js';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([expect.stringContaining('(the layering in docs/architecture.md)')]);
  });

  it.each([
    ['src/commands/new.ts', "import '../contract/index.js'; import '../security/redact.js'; import '../store/patch-engine.js';"],
    ['src/security/known-safe/new.ts', "import '../dangerous-commands/index.js';"],
    ['src/init/new.ts', "import '../hub/instructions.js';"],
    ['sim/new.ts', "import '../src/hub/hub.js';"],
    ['theia-app/openspace/src/node/new.ts', "import '../../../../src/node.js'; import '../../../../src/browser.js';"],
    ['theia-app/openspace/src/browser/chat/new.ts', "import '../../../../../src/browser.js'; import '../common/x.js';"],
    ['src/hub/new.test.ts', "import '../../sim/start.js';"],
    ['src/store/new.ts', "import '../families/file/tools.js'; import '../families/file/port.js';"],
    ['src/hub/new.ts', "import '../families/index.js'; import '../families/pane/tools.js';"],
    ['src/families/editor/tools.ts', "import './port.js'; import '../file/tools.js'; import '../../contract/index.js';"],
    [
      'src/families/git/commands.ts',
      "import '../../commands/command.js'; import '../file/commands.js'; import '../../store/patch-engine.js';",
    ],
  ])('%s may: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
