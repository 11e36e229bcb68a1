import { Emitter } from '@theia/core/lib/common/event';
import { ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { inject, injectable, interfaces } from '@theia/core/shared/inversify';
import { ToolError, type FileInfo, type SearchMatch } from '../../../../src/contract/index.js';
import type { Disposable, FileStat, SearchOptions, WorkspacePort } from '../../../../src/commands/port.js';
import { FILES_PATH, type FilesBackend, type FilesMethod } from '../common/protocol.js';
import { ContentIds } from './content-ids.js';

export const FilesBackendProxy = Symbol('FilesBackendProxy');

export function createFilesBackendProxy(ctx: interfaces.Context): FilesBackend {
  return ServiceConnectionProvider.createProxy<FilesBackend>(ctx.container, FILES_PATH);
}

/** The workspace port of the browser: every call goes to the backend, where the path guard runs. */
@injectable()
export class RemoteWorkspacePort implements WorkspacePort {
  @inject(FilesBackendProxy) protected readonly backend!: FilesBackend;
  @inject(ContentIds) protected readonly ids!: ContentIds;
  private readonly written = new Emitter<{ path: string; text: string }>();

  resolve(path: string): Promise<string> {
    return this.call('resolve', [path]);
  }

  stat(path: string): Promise<FileStat> {
    return this.call('stat', [path]);
  }

  readText(path: string): Promise<{ text: string; size: number }> {
    return this.call('readText', [path]);
  }

  async writeText(path: string, text: string): Promise<{ bytes: number; created: boolean }> {
    const result = await this.call<{ bytes: number; created: boolean }>('writeText', [path, text]);
    this.written.fire({ path: await this.resolve(path), text });
    return result;
  }

  list(path: string, options: { recursive: boolean; limit: number }): Promise<{ files: FileInfo[]; truncated: boolean }> {
    return this.call('list', [path, options]);
  }

  search(options: SearchOptions): Promise<{ matches: SearchMatch[]; truncated: boolean }> {
    return this.call('search', [options]);
  }

  onFileWritten(listener: (path: string, text: string) => void): Disposable {
    return this.written.event(({ path, text }) => listener(path, text));
  }

  private async call<T>(method: FilesMethod, args: unknown[]): Promise<T> {
    const outcome = await this.backend.call(this.ids.rootPath, method, args);
    if (!outcome.ok) throw new ToolError(outcome.code, outcome.message, outcome.details);
    return outcome.value as T;
  }
}
