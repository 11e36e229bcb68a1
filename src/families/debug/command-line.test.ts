/**
 * debug.start {command}: how a command line becomes what a debugger launches, against files made
 * here (a script, the workspace's node_modules/.bin, an executable, a shell script), and the clear
 * refusals where no debugger can run it as typed.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLaunch } from './command-line.js';

const root = mkdtempSync('/var/tmp/openspace-command-line-');
mkdirSync(join(root, 'src'));
mkdirSync(join(root, 'build'));
mkdirSync(join(root, 'node_modules', 'tool', 'bin'), { recursive: true });
mkdirSync(join(root, 'node_modules', '.bin'));
writeFileSync(join(root, 'app.py'), 'print(1)\n');
writeFileSync(join(root, 'src', 'main.ts'), 'console.log(1);\n');
writeFileSync(join(root, 'src', 'main.js'), 'console.log(1);\n');
writeFileSync(join(root, 'node_modules', 'tool', 'bin', 'tool.js'), '#!/usr/bin/env node\nconsole.log(1);\n');
chmodSync(join(root, 'node_modules', 'tool', 'bin', 'tool.js'), 0o755);
symlinkSync('../tool/bin/tool.js', join(root, 'node_modules', '.bin', 'tool'));
copyFileSync('/bin/true', join(root, 'build', 'app'));
chmodSync(join(root, 'build', 'app'), 0o755);
writeFileSync(join(root, 'build', 'run.sh'), '#!/bin/bash\necho hi\n');
chmodSync(join(root, 'build', 'run.sh'), 0o755);
writeFileSync(join(root, 'build', 'gen.py'), '#!/usr/bin/env -S python3 -u\nprint(1)\n');
chmodSync(join(root, 'build', 'gen.py'), 0o755);

const launch = (line: string, cwd = root) => commandLaunch(line, cwd, root);
const refused = async (line: string, message: RegExp, code = 'INVALID_ARGUMENT') =>
  expect(launch(line)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });

describe('debug.start {command}', () => {
  it('Python: a script with its options and arguments, a module, and pytest as the debugger’s Python runs it', async () => {
    expect(await launch('python3 -X dev -u app.py --port 80 "two words"')).toEqual({
      language: 'python',
      program: join(root, 'app.py'),
      args: ['--port', '80', 'two words'],
      runtimeArgs: ['-X', 'dev', '-u'],
    });
    expect(await launch('python -m http.server 8000')).toEqual({
      language: 'python',
      program: '',
      module: 'http.server',
      args: ['8000'],
      runtimeArgs: [],
    });
    expect(await launch("pytest tests/test_cart.py -k 'total and not slow'")).toEqual({
      language: 'python',
      program: '',
      module: 'pytest',
      args: ['tests/test_cart.py', '-k', 'total and not slow'],
      runtimeArgs: [],
    });
    // A script that says which Python runs it (env -S with an option before the interpreter).
    expect(await launch('./gen.py out.txt', join(root, 'build'))).toMatchObject({
      language: 'python',
      program: join(root, 'build', 'gen.py'),
    });
  });

  it("Node: a script with node's options, TypeScript through tsx, and a package's command from node_modules/.bin", async () => {
    expect(await launch('node --enable-source-maps -r ./setup.js src/main.js a b')).toEqual({
      language: 'node',
      program: join(root, 'src', 'main.js'),
      args: ['a', 'b'],
      runtimeArgs: ['--enable-source-maps', '-r', './setup.js'],
    });
    expect(await launch('npx tsx src/main.ts --flag')).toEqual({
      language: 'node',
      program: join(root, 'src', 'main.ts'),
      args: ['--flag'],
      runtimeArgs: [],
    });
    // Found from a folder below the root, as npx finds it; its real file is the program.
    expect(await launch('tool x', join(root, 'src'))).toEqual({
      language: 'node',
      program: join(root, 'node_modules', '.bin', 'tool'),
      args: ['x'],
      runtimeArgs: [],
    });
  });

  it('an executable is LLDB’s, by path or on PATH', async () => {
    expect(await launch('./build/app in.txt')).toEqual({
      language: 'c',
      program: join(root, 'build', 'app'),
      args: ['in.txt'],
      runtimeArgs: [],
    });
    expect(await launch('true')).toMatchObject({ language: 'c', program: expect.stringMatching(/\/true$/) });
  });

  it('refuses, saying how, what no debugger runs as typed', async () => {
    await refused('pytest | tee out.txt', /one command/);
    await refused('make && ./build/app', /one command/);
    await refused('DEBUG=1 node src/main.js', /Variables set before/);
    await refused('node src/main.js > out.txt', /Redirections/);
    await refused('node $HOME/main.js', /\$HOME.*needs a shell/);
    await refused('python3 -c "print(1)"', /script or a module/);
    await refused('node -e "1"', /not code given/);
    await refused('node --test src/main.js', /each test file in a process of its own/);
    await refused('node --inspect-brk src/main.js', /turns Node's inspector on itself/);
    await refused('npm test', /debug the command the script runs/);
    await refused('python3', /Name the script/);
    await refused('./build/run.sh', /a bash script.*pass language/);
    await refused('no-such-tool-here x', /No program named no-such-tool-here/);
    await refused('./build/missing', /no executable program at \.\/build\/missing/);
    await refused('python3 nothing.py', /no file nothing\.py/, 'FILE_NOT_FOUND');
  });
});
