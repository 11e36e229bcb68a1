/**
 * npm run theia -- --workspace DIR [--port N] [--language-server ENDINGS=COMMAND]…
 *                                                  (npm run theia:build: install and build only)
 * Installs the Theia app on first use, builds it when its sources changed, and starts Theia on
 * 127.0.0.1 with the OpenSpace hub mounted on the same port; prints the client configuration.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lockFilePath, readLockFile } from '../src/security/lock-file.js';
import { clientConfig } from '../src/init/client-config.js';
import { describeServers, LANGUAGE_SERVERS_ENV, parseLanguageServer } from '../src/lsp/servers.js';
import { typescriptServer } from '../src/lsp/typescript.js';
import { prepareTheia, startTheia } from '../conformance/theia-launch.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      workspace: { type: 'string' },
      port: { type: 'string', default: '3000' },
      build: { type: 'boolean', default: false },
      'language-server': { type: 'string', multiple: true, default: [] },
    },
  });
  if (values.build) {
    prepareTheia();
    return;
  }
  if (!values.workspace) {
    process.stderr.write('Usage: npm run theia -- --workspace DIR [--port N] [--language-server ENDINGS=COMMAND]…\n');
    process.exit(2);
  }
  const workspace = resolve(values.workspace);
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    process.stderr.write(`openspace: --workspace ${values.workspace} is not a directory\n`);
    process.exit(2);
  }
  let servers;
  try {
    servers = values['language-server'].map(parseLanguageServer);
  } catch (err) {
    process.stderr.write(`openspace: --language-server: ${(err as Error).message}\n`);
    process.exit(2);
  }
  prepareTheia();
  const { child, origin } = startTheia(workspace, Number(values.port), 'inherit', { [LANGUAGE_SERVERS_ENV]: JSON.stringify(servers) });
  const url = await origin;
  const lock = await readLockFile(Number(new URL(url).port), 10_000);
  process.stdout.write(
    [
      'OpenSpace on Theia is ready.',
      `  Open the IDE:  ${url}`,
      `  Workspace:     ${workspace}`,
      `  Code:          ${describeServers([typescriptServer(), ...servers])}`,
      clientConfig(`${url}/mcp`, `${url}/openspace/instructions`, lock?.authToken),
      lock ? `\nThe URL and token are also in ${lockFilePath(Number(new URL(url).port))} (readable by you only).` : '',
      '',
      'Agent tools work while a browser window shows the IDE. Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  child.stdout!.resume();
  const stop = () => child.kill('SIGTERM');
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  child.once('exit', (code) => process.exit(code ?? 0));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
