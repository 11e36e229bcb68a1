/** permissionRequest: the card names what the agent asks to do, from the request itself first. */
import type { RequestPermissionRequest, ToolCall } from '@agentclientprotocol/sdk';
import { expect, it } from 'vitest';
import { permissionRequest } from './acp-messages.js';

const options: RequestPermissionRequest['options'] = [{ kind: 'allow_once', name: 'Allow', optionId: 'allow' }];
const ask = (toolCall: RequestPermissionRequest['toolCall'], known?: ToolCall) =>
  permissionRequest({ sessionId: 's1', options, toolCall }, 'per_1', 'msg_1', known);

it("Claude's edit asks to change files, even when the streamed call was still a bare 'Edit'", () => {
  const streamed: ToolCall = { toolCallId: 'toolu_1', title: 'Edit', kind: 'edit', rawInput: {} };
  const request = { toolCallId: 'toolu_1', title: 'Edit src/index.ts', kind: 'edit' as const, rawInput: { file_path: '/w/src/index.ts' } };
  expect(ask(request, streamed)).toMatchObject({
    permission: 'edit',
    patterns: ['Edit src/index.ts'],
    metadata: { file_path: '/w/src/index.ts' },
  });
  expect(ask(request)).toMatchObject({ permission: 'edit' });
});

it('an MCP tool is named by its title, whatever its kind', () => {
  expect(ask({ toolCallId: 't', title: 'mcp__openspace__openspace_file_write', kind: 'other' })).toMatchObject({
    permission: 'mcp__openspace__openspace_file_write',
  });
  expect(ask({ toolCallId: 't', title: 'openspace.file.write (openspace MCP Server)', kind: 'edit' })).toMatchObject({
    permission: 'openspace.file.write',
  });
});

it('a request that does not name its tool takes the name of the call the turn showed', () => {
  const known: ToolCall = { toolCallId: 'call_2', title: 'Tool: openspace/openspace.file.write', kind: 'other' };
  expect(ask({ toolCallId: 'call_2', title: 'Approve Write File' }, known)).toMatchObject({ permission: 'openspace.file.write' });
});
