export * from './fill.projector.js';
export * from './projection-checkpoint.repository.js';
