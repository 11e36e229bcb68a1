/**
 * What an IDE's browser code may use of OpenSpace: the families (their tools, ports, commands and
 * phrases) and what they share, the deck and board models, and the browser-safe security checks. The Theia
 * extension's browser and common code import this entry only (eslint.config.js checks it).
 */
export * from './contract/index.js';
export * from './contract/port.js';
export * from './commands/index.js';
export * from './commands/state-publisher.js';
export * from './commands/event-log.js';
export * from './families/index.js';
export * from './families/phrases.js';
// The board model's own ShapeSpec and ShapeUpdates are its input types; the catalog's schemas keep those names.
export { boardTitle, live, newScene, parseScene, serializeScene, shapesOf, type Element, type Scene } from './models/board.js';
export * from './models/board-layout.js';
export * from './models/deck.js';
export * from './security/consent.js';
export * from './security/sandbox.js';
export * from './security/file-policy.js';
export * from './security/box-check.js';
export * from './security/allow-rules.js';
export type * from './hub/hub.js';
export type * from './init/agent-launch.js';
