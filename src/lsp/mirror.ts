/**
 * A copy on disk of an in-memory workspace, for language servers, which read a project's files
 * from disk. Kept current with every write; packages the workspace's package.json names are linked
 * from OpenSpace's own install when it has them (so the demo sees @types/node, as after `npm install`).
 */
import * as nodeFs from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Disposable } from '../contract/port.js';
import type { WorkspacePort } from '../families/file/port.js';

const require = createRequire(import.meta.url);

export class WorkspaceMirror implements Disposable {
  private readonly subscription: Disposable;

  private constructor(
    readonly dir: string,
    workspace: WorkspacePort,
  ) {
    this.subscription = workspace.onFileWritten((path, text) => this.write(path, text));
  }

  /** Copy every file of `root` in `fs` (a memfs volume) to a new temporary directory. */
  static create(fs: typeof nodeFs, root: string, workspace: WorkspacePort): WorkspaceMirror {
    const dir = nodeFs.realpathSync(nodeFs.mkdtempSync(join(tmpdir(), 'openspace-lsp-')));
    const copy = (from: string, to: string) => {
      for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
        const source = join(from, String(entry.name));
        const target = join(to, String(entry.name));
        if (entry.isDirectory()) {
          nodeFs.mkdirSync(target, { recursive: true });
          copy(source, target);
        } else if (entry.isFile()) nodeFs.writeFileSync(target, fs.readFileSync(source));
      }
    };
    copy(root, dir);
    linkPackages(dir);
    return new WorkspaceMirror(dir, workspace);
  }

  private write(path: string, text: string): void {
    const target = join(this.dir, path);
    nodeFs.mkdirSync(dirname(target), { recursive: true });
    nodeFs.writeFileSync(target, text);
  }

  dispose(): void {
    this.subscription.dispose();
    nodeFs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Link node_modules/<name> to OpenSpace's copy of each package the workspace depends on, where there is one. */
function linkPackages(dir: string): void {
  let manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    manifest = JSON.parse(nodeFs.readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return;
  }
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    let installed: string;
    try {
      installed = dirname(require.resolve(`${name}/package.json`));
    } catch {
      continue;
    }
    const link = join(dir, 'node_modules', name);
    nodeFs.mkdirSync(dirname(link), { recursive: true });
    nodeFs.symlinkSync(installed, link, 'dir');
  }
}
