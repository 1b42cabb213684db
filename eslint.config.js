// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The code's own rules. Layer rules (which folder may import which) are dependency-cruiser's
 * (.dependency-cruiser.cjs); formatting is Prettier's, so no rule here speaks of layout.
 */
export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'data/', 'node_modules/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    // The read side never writes: no statement of libs/market/src/read inserts, updates, deletes or locks.
    files: ['libs/market/src/read/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.db-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['TemplateElement[value.raw', 'Literal[value'].map((node) => ({
          selector: `${node}=/\\b(INSERT\\s+INTO|UPDATE\\s+\\w+\\s+SET|DELETE\\s+FROM|TRUNCATE|FOR\\s+(NO\\s+KEY\\s+)?UPDATE)\\b/i]`,
          message: 'libs/market/src/read never writes: a statement that changes or locks rows belongs to a write-side repository.',
        })),
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly', console: 'readonly' },
    },
  },
);
