export * from './command.js';
export * from './ide-state.js';
