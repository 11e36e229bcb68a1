import { ToolError, type CallContext } from '../../contract/index.js';
import { defineNodeCommand } from '../../commands/command.js';
import { confirmOutsideSandbox } from '../../commands/outside-sandbox.js';
import type { NodeIde } from '../index.js';
import { DEFAULT_TEST_TIMEOUT_MS, testCancel, testDiscover, testResults, testRun } from './tools.js';

/** Test code is agent-run code: outside a sandbox, an agent's run waits for the person's yes. */
function outsideSandbox(ide: NodeIde, context: CallContext | undefined, what: string): Promise<void> {
  return confirmOutsideSandbox(ide.security, ide.tests.sandboxed, context, {
    title: `Run the workspace's tests outside a sandbox?`,
    message: `The agent wants to ${what}. There is no sandbox here (bubblewrap is missing or turned off), so the test code runs with your rights.`,
    accept: 'Run',
  });
}

export const testDiscoverCommand = defineNodeCommand(testDiscover, async (ide, args, context) => {
  const paths = args.path === undefined ? [] : [await ide.workspace.resolve(args.path)];
  await outsideSandbox(ide, context, 'list the tests (loading the test files runs their top level)');
  return ide.tests.discover(paths);
});

export const testRunCommand = defineNodeCommand(testRun, async (ide, args, context) => {
  if ((args.path === undefined) !== (args.line === undefined))
    throw new ToolError('INVALID_ARGUMENT', 'Pass path and line together: the test around that line of that file runs.', {
      field: args.path === undefined ? 'path' : 'line',
    });
  const paths = await Promise.all((args.paths ?? []).map((p) => ide.workspace.resolve(p)));
  const at = args.path === undefined ? undefined : { path: await ide.workspace.resolve(args.path), line: args.line! };
  await outsideSandbox(ide, context, 'run tests');
  return ide.tests.run({
    paths,
    ...(args.names && { names: args.names }),
    ...(at && { at }),
    timeoutMs: args.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
    by: context ? 'agent' : 'person',
    ...(context?.signal && { signal: context.signal }),
  });
});

export const testResultsCommand = defineNodeCommand(testResults, async (ide) => {
  const last = ide.tests.last();
  if (!last) throw new ToolError('NO_TEST_RESULTS', 'No test has run since the IDE started: run them with openspace.test.run.');
  return last;
});

export const testCancelCommand = defineNodeCommand(testCancel, async (ide) => ({ cancelled: ide.tests.cancel() }));

export default [testDiscoverCommand, testRunCommand, testResultsCommand, testCancelCommand];
