import { AsyncEmitter, type WaitUntilEvent } from '@theia/core/lib/common/event';
import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { inject, injectable, interfaces } from '@theia/core/shared/inversify';
import { ToolError, type FileInfo, type PatchOperation, type SearchMatch, type SnapshotInfo } from '../../../../src/browser.js';
import type { Disposable, FileStat, SearchOptions, WorkspacePort, WriteOptions, WriteTextOptions } from '../../../../src/browser.js';
import { FILES_PATH, type FilesBackend, type FilesMethod } from '../common/protocol.js';
import { ContentIds } from './content-ids.js';

export const FilesBackendProxy = Symbol('FilesBackendProxy');

function plain<O extends WriteOptions>(options: O): O {
  const context = options.context && { sessionId: options.context.sessionId, clientName: options.context.clientName };
  return { ...options, context };
}

export function createFilesBackendProxy(ctx: interfaces.Context): FilesBackend {
  return ServiceConnectionProvider.createProxy<FilesBackend>(ctx.container, FILES_PATH);
}

/** The workspace port of the browser: every call goes to the backend, where the path guard runs. */
@injectable()
export class RemoteWorkspacePort implements WorkspacePort {
  @inject(FilesBackendProxy) protected readonly backend!: FilesBackend;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  /** Every write with its text, in order; a write answers once what its listeners wait for has settled (an open editor showing it). */
  private readonly written = new AsyncEmitter<WaitUntilEvent & { path: string; text: string }>();

  rootPath(): string | undefined {
    return this.ids.rootUri?.path.fsPath();
  }

  resolve(path: string): Promise<string> {
    return this.call('resolve', [path]);
  }

  stat(path: string): Promise<FileStat> {
    return this.call('stat', [path]);
  }

  readText(path: string): Promise<{ text: string; size: number; version: string }> {
    return this.call('readText', [path]);
  }

  // Options cross the RPC as plain data (the context without its `ask`).
  async writeText(
    path: string,
    text: string,
    options: WriteTextOptions = {},
  ): Promise<{ bytes: number; created: boolean; version: string }> {
    // The path as the listeners know it, asked beside the write rather than after it (one round trip, not two).
    const resolved = this.resolve(path);
    resolved.catch(() => undefined);
    const result = await this.call<{ bytes: number; created: boolean; version: string }>('writeText', [path, text, plain(options)]);
    await this.written.fire({ path: await resolved, text });
    return result;
  }

  async patch(
    path: string,
    request: { baseVersion: string; operations: PatchOperation[] },
    options: WriteOptions = {},
  ): Promise<{ version: string; bytes: number; totalLines: number }> {
    const result = await this.call<{ version: string; bytes: number; totalLines: number }>('patch', [path, request, plain(options)]);
    this.announce(path);
    return result;
  }

  snapshots(path: string): Promise<{ currentVersion: string | null; snapshots: SnapshotInfo[] }> {
    return this.call('snapshots', [path]);
  }

  async restore(
    path: string,
    request: { version: string; baseVersion?: string },
    options: WriteOptions = {},
  ): Promise<{ version: string; bytes: number }> {
    const result = await this.call<{ version: string; bytes: number }>('restore', [path, request, plain(options)]);
    this.announce(path);
    return result;
  }

  list(path: string, options: { recursive: boolean; limit: number }): Promise<{ files: FileInfo[]; truncated: boolean }> {
    return this.call('list', [path, options]);
  }

  search(options: SearchOptions): Promise<{ matches: SearchMatch[]; truncated: boolean }> {
    return this.call('search', [options]);
  }

  /**
   * A patch or restore answers without the file's text (it stays on the backend): read it after the
   * answer and tell the listeners then. Reads in order, so the last event holds the newest text.
   */
  private announce(path: string): void {
    void Promise.all([this.resolve(path), this.readText(path)])
      .then(([resolved, { text }]) => this.written.fire({ path: resolved, text }))
      .catch(() => {
        // Gone or unreadable by now: the next write or read tells.
      });
  }

  /** A write the backend made (a command run beside the files): shown as this port's own writes are, before the write answers. */
  async showWritten(path: string, text: string): Promise<void> {
    await this.written.fire({ path, text });
  }

  onFileWritten(listener: (path: string, text: string) => unknown): Disposable {
    return this.written.event((event) => {
      const pending = listener(event.path, event.text);
      if (pending instanceof Promise) event.waitUntil(pending);
    });
  }

  private async call<T>(method: FilesMethod, args: unknown[]): Promise<T> {
    const outcome = await this.backend.call(this.ids.rootPath, method, args);
    if (!outcome.ok) throw new ToolError(outcome.code, outcome.message, outcome.details);
    return outcome.value as T;
  }
}
