/**
 * The import rules of the codebase (docs/architecture.md), checked by `npm run check:deps` and by the
 * architecture test in the suite: no import cycles; the composition root (`src/app/`) is imported only
 * by the entry points (`src/server/`, `src/cli/`), tests and benchmarks; a resource is reached from
 * outside its folder only through its `index.ts`, and a media folder likewise; media serving never
 * loads the media worker; the client package stands alone and, but for its node entry, uses no Node
 * built-in.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a loop cannot be read, tested or changed one at a time.',
      from: {},
      to: { circular: true }
    },
    {
      name: 'app-is-the-top-floor',
      severity: 'error',
      comment: 'src/app/ wires everything together; nothing below it may depend on it.',
      from: { path: '^src/', pathNot: '^src/(app|server|cli)/' },
      to: { path: '^src/app/' }
    },
    {
      name: 'resources-through-their-index',
      severity: 'error',
      comment: 'A resource reaches another only through its index.ts (its public face).',
      from: { path: '^src/resources/([^/]+)/' },
      to: {
        path: '^src/resources/[^/]+/',
        pathNot: ['^src/resources/$1/', '^src/resources/kit/', '^src/resources/[^/]+/index\\.ts$']
      }
    },
    {
      name: 'modules-reach-resources-through-their-index',
      severity: 'error',
      comment: 'Code outside the resources uses a resource only through its index.ts.',
      from: { path: '^src/', pathNot: '^src/resources/' },
      to: {
        path: '^src/resources/',
        pathNot: ['^src/resources/kit/', '^src/resources/[^/]+/index\\.ts$']
      }
    },
    {
      name: 'kit-below-resources',
      severity: 'error',
      comment: 'The resource kit serves every resource and knows none of them.',
      from: { path: '^src/resources/kit/' },
      to: { path: '^src/resources/(?!kit/)' }
    },
    {
      name: 'media-through-its-indexes',
      severity: 'error',
      comment: 'Code outside src/media/ (the resources above all) uses a media folder only through its index.ts.',
      from: { path: '^src/', pathNot: '^src/media/' },
      to: { path: '^src/media/', pathNot: '^src/media/[^/]+/index\\.ts$' }
    },
    {
      name: 'serving-without-the-worker',
      severity: 'error',
      comment: 'Serving reads what the worker wrote through the store (file names in src/media/store/); it never loads the worker.',
      from: { path: '^src/media/serving/' },
      to: { path: '^src/media/worker/' }
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment: 'The client package is published on its own: it imports nothing outside itself and has no dependencies.',
      from: { path: '^packages/client/src/' },
      to: { pathNot: '^packages/client/src/', dependencyTypesNot: ['core'] }
    },
    {
      name: 'client-runs-in-browsers',
      severity: 'error',
      comment: 'Only the client\'s node entry (src/node.ts) may use Node built-ins; the rest runs in a page too.',
      from: { path: '^packages/client/src/', pathNot: '^packages/client/src/node\\.ts$' },
      to: { dependencyTypes: ['core'] }
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'], conditionNames: ['import', 'node', 'default'], exportsFields: ['exports'] }
  }
}
