import { FileUri } from '@theia/core/lib/common/file-uri';
import type { WorkspaceServer } from '@theia/workspace/lib/common/workspace-protocol';

/** The workspace Theia opened, as a directory path. */
export async function openedWorkspace(server: WorkspaceServer): Promise<string | undefined> {
  const opened = await server.getMostRecentlyUsedWorkspace();
  return opened ? FileUri.fsPath(opened) : undefined;
}
