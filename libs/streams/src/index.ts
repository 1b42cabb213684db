export * from './channels/stream-event.js';
export * from './channels/stream-events.js';
export * from './channels/subscription.js';
export * from './sessions/stream-close-codes.js';
export * from './sessions/stream-session.js';
export * from './sessions/stream-sessions.service.js';
export * from './streams.module.js';
