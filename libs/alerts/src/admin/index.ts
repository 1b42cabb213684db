export * from './management/index.js';
export * from './rules/alert-rules.repository.js';
export * from './rules/rule-validation.js';
