/**
 * What an IDE's Node side may use of OpenSpace besides the browser entry: the hub and its router,
 * the access token and lock file, the workspace's files, the sandbox's host side, the audit log,
 * git, the language servers and the agent pane's launch. The Theia extension's backend imports this
 * entry and the browser one only (eslint.config.js checks it).
 */
export * from './hub/hub.js';
export * from './hub/router.js';
export * from './hub/auth.js';
export { testsSummary } from './hub/instructions.js';
export * from './security/lock-file.js';
export * from './security/audit-log.js';
export * from './security/sandbox-runtime.js';
export * from './security/sandbox-processes.js';
export * from './security/sandbox-host.js';
export * from './store/workspace-files.js';
export * from './families/git/repository.js';
export * from './families/test/service.js';
export * from './families/debug/adapters.js';
export * from './families/debug/command-line.js';
export * from './lsp/typescript.js';
export * from './lsp/servers.js';
export * from './lsp/lsp-code-port.js';
export * from './init/agent-files.js';
export * from './init/agent-launch.js';
