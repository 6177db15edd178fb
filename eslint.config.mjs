// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * The floors of the pipeline (docs/architecture.md): decorators <- facts <- schema <- invoke <- server <- nest,
 * with generate beside schema, interceptors beside server, errors.ts, log.ts and objects.ts on the ground and redis beside nest. `import-x/no-restricted-paths`
 * forbids every upward arrow, `import-x/no-cycle` every circle of value imports (the type-only ones are
 * dependency-cruiser's, .dependency-cruiser.json, also run by `npm run lint`), and `no-restricted-imports` keeps
 * the MCP SDK inside src/server.
 */
const SDK = { group: ['@modelcontextprotocol/*'], message: 'Only src/server imports the MCP SDK.' };
const sdkOutsideServer = {
  files: ['src/**/*.ts'],
  ignores: ['src/server/**'],
  rules: { 'no-restricted-imports': ['error', { patterns: [SDK] }] },
};

/** Paths under src/, from the ground up. */
const GROUND = ['errors.ts', 'log.ts', 'objects.ts'];
const EVERYTHING = [
  ...GROUND,
  'decorators',
  'facts',
  'schema',
  'generate',
  'invoke',
  'interceptors',
  'server',
  'nest',
  'redis',
  'index.ts',
  // The command line, on top: it loads a project's server and reads it through its public face.
  'cli',
];
const except = (...keep) => EVERYTHING.filter((f) => !keep.includes(f));

/** What each floor may not import: every floor above it. */
const ABOVE = {
  // The ground floor imports nothing of ours but errors.ts and objects.ts, which import nothing (log.ts throws
  // its coded errors and asks objects.ts what a thrown value is).
  ...Object.fromEntries(GROUND.map((f) => [f, except(f, 'errors.ts', 'objects.ts')])),
  // src/decorators imports the ground floor only (a decorator misused throws a coded error of errors.ts).
  decorators: except(...GROUND, 'decorators'),
  facts: except(...GROUND, 'decorators', 'facts'),
  schema: except(...GROUND, 'decorators', 'facts', 'schema'),
  generate: except(...GROUND, 'decorators', 'facts', 'schema', 'generate'),
  invoke: except(...GROUND, 'decorators', 'facts', 'schema', 'invoke'),
  // The shipped interceptors stand beside the server: they use only what any user's interceptor gets.
  interceptors: except(...GROUND, 'decorators', 'facts', 'schema', 'invoke', 'interceptors'),
  server: except(...GROUND, 'decorators', 'facts', 'schema', 'invoke', 'server'),
};
const zones = [
  ...Object.entries(ABOVE).map(([floor, above]) => ({
    target: `./src/${floor}`,
    from: above.map((f) => `./src/${f}`),
    message: `src/${floor} may not import ${above.join(', ')}: import downwards only (docs/architecture.md).`,
  })),
  // The Nest and Redis entries are bundled on their own and share our code through the main entry only.
  ...['nest', 'redis'].map((entry) => ({
    target: `./src/${entry}`,
    from: './src',
    except: ['./index.ts', `./${entry}`],
    message: `src/${entry} uses the public API only: import it from ../index (docs/architecture.md).`,
  })),
];

/**
 * Every throw is a coded error of ours (src/errors.ts); a plain `Error` stays only where its text is someone
 * else's contract, each with an eslint-disable naming why (the list is in src/errors.ts).
 */
const BUILT_IN = /^(Error|TypeError|RangeError)$/;
const ownErrorsOnly = {
  files: ['src/**/*.ts'],
  ignores: ['src/errors.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      ...['NewExpression', 'CallExpression'].map((node) => ({
        selector: `${node}[callee.name=${BUILT_IN}]`,
        message: 'Throw a coded error of src/errors.ts (UsageError, UsageTypeError ...), not a built-in one.',
      })),
    ],
  },
};

// The rooms inside src/server, src/server/http and src/invoke and their order are dependency-cruiser's
// (.dependency-cruiser.json, the `server-*`, `http-*` and `invoke-*` rules), which sees type-only imports as well;
// `npm run lint` runs it after ESLint.

const floors = {
  files: ['src/**/*.ts'],
  plugins: { 'import-x': importX },
  settings: {
    // import-x reads only the files its settings name as modules; without these it sees no .ts import at all.
    'import-x/extensions': ['.ts'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.d.ts', '.js'] })],
  },
  rules: {
    'import-x/no-restricted-paths': ['error', { zones }],
    'import-x/no-cycle': ['error', { ignoreExternal: true }],
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-bench/**',
      'node_modules/**',
      'samples/**',
      'test/fixtures/**',
      'test/e2e/fixture/**',
      'test/.*/**',
      'bench/fixtures/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Constructors are passed around as values (`design:type`, record classes); `Function` is their type here.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Parameters of decorated methods are the tool's arguments: their names are read even when the body ignores them.
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/decorators/*.decorator.ts'],
    // `@Tool` without parentheses is detected through `arguments[1]`, keeping the published signature one-argument.
    rules: { 'prefer-rest-params': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    // A function a reader takes in at once: longer ones are split into named steps (issue 24).
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
  floors,
  sdkOutsideServer,
  ownErrorsOnly,
);
