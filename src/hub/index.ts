export * from './bridge.js';
export * from './hub.js';
export * from './instructions.js';
export * from './router.js';
export * from './server.js';
export * from './state.js';
export * from './http.js';
