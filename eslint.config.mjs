// ESLint (npm run check:lint): neostandard, the `standard` style the code is written in, with its
// TypeScript support (docs/decisions.md, "ESLint").
import neostandard from 'neostandard'

export default [
  { ignores: ['**/*', '!src/**', '!test/**', '!bench/**', '!scripts/**', '!packages/', '!packages/client/', '!packages/client/src/**'] },
  ...neostandard({ ts: true }),
  {
    rules: {
      // Long object literals are kept on one line where they read as one record (hundreds of places).
      '@stylistic/object-property-newline': 'off',
      // `void promise` marks a deliberate fire-and-forget whose errors are handled inside it.
      'no-void': 'off',
      // The loops wait on flags that other async tasks set, which this rule cannot see.
      'no-unmodified-loop-condition': 'off',
      // A TypeBox schema and its Static type share a name on purpose; TypeScript checks real redeclarations.
      '@typescript-eslint/no-redeclare': 'off',
      // The key, header and input checks match control characters on purpose, to refuse them.
      'no-control-regex': 'off',
      // A `let` that closures read before its one assignment (a logger set once the app exists) cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }]
    }
  },
  {
    // The environment is read in one place, validated once at start (docs/configuration.md): the rest of
    // the server gets it as settings. Tests, benches and scripts set up processes and may read it.
    files: ['src/**'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read the environment in src/config and pass it down as settings.' }],
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name='process'][property.value='env']", message: 'Read the environment in src/config and pass it down as settings.' }]
    }
  }
]
