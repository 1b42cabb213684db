/**
 * The layer rules of docs/architecture.md, checked on every `npm test` (`npm run lint`). Paths are the
 * resolved files: `#market` resolves to libs/market/src/index.ts through package.json `imports`.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'libs-never-import-apps',
      comment: 'A lib is shared by the apps; an app is transport only.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'libs-by-name-from-outside',
      comment: 'Apps, benchmarks and tests reach a lib by its #name (package.json imports), never by a relative path.',
      severity: 'error',
      from: { path: '^(apps|bench|test)/' },
      to: { path: '^libs/', dependencyTypesNot: ['aliased-subpath-import'] },
    },
    {
      name: 'libs-by-name-between-libs',
      comment: 'A lib reaches another lib by its #name, never by a relative path.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/', pathNot: '^libs/$1/', dependencyTypesNot: ['aliased-subpath-import'] },
    },
    {
      name: 'lib-index-is-the-only-door',
      comment: 'Nothing outside a lib imports past its src/index.ts (the benchmarks included).',
      severity: 'error',
      from: { path: '^(apps|bench|test)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'lib-index-is-the-only-door-between-libs',
      comment: 'A lib imports another lib through its src/index.ts only.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'read-side-never-reaches-a-writer',
      comment:
        'What a route reads (libs/market/src/read) uses no writer, repository, step or feed of the write side; ' +
        'its pure helpers (a snapshot grid, a summary) it may. Its SQL never writes: the ESLint rule of eslint.config.js.',
      severity: 'error',
      from: { path: '^libs/market/src/read/', pathNot: '\\.(db-)?spec\\.ts$' },
      to: { path: '^libs/market/src/(?!read/).+\\.(writer|repository|step|projector|ingestion|buffer)\\.ts$' },
    },
    {
      name: 'facts-know-no-features',
      comment: 'The facts writer names no feature: open orders and alerts register steps with it.',
      severity: 'error',
      from: { path: '^libs/market/src/facts/' },
      to: { path: '^(libs/market/src/orders/|libs/alerts/)' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes the load order of modules matter.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|coverage|data)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      conditionNames: ['tidewatch-source', 'import', 'node', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.json'],
    },
  },
};
