// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The floors of the pipeline (docs/architecture.md): decorators <- schema <- invoke <- server <- nest.
 * Each folder may import the floors below it and nothing above; only src/server imports the MCP SDK;
 * src/nest uses the package's public API (src/index.ts) and nothing else of ours.
 */
const SDK = { group: ['@modelcontextprotocol/*'], message: 'Only src/server imports the MCP SDK.' };
const above = (floor, folders) => ({
  group: folders.map((f) => `../${f}`).flatMap((p) => [p, `${p}/*`]),
  message: `${floor} sits below ${folders.join(', ')}: import downwards only (docs/architecture.md).`,
});
const floor = (files, ...patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'samples/**', 'test/fixtures/**', 'test/e2e/fixture/**', 'test/.*/**', 'bench/fixtures/**', '**/*.js', '**/*.mjs'] },
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
  floor(['src/decorators/**/*.ts'], SDK, { group: ['../*', '../**'], message: 'src/decorators records intent and imports nothing else of ours.' }),
  floor(['src/facts/**/*.ts'], SDK, above('src/facts', ['schema', 'invoke', 'server', 'nest', 'generate', 'request-context', 'index'])),
  floor(['src/schema/**/*.ts'], SDK, above('src/schema', ['invoke', 'server', 'nest', 'generate', 'index'])),
  floor(['src/invoke/**/*.ts'], SDK, above('src/invoke', ['server', 'nest', 'generate', 'index'])),
  floor(['src/generate/**/*.ts'], SDK, above('src/generate', ['invoke', 'server', 'nest', 'index'])),
  floor(['src/*.ts'], SDK),
  floor(['src/nest/**/*.ts'], SDK, { group: ['../*', '../**', '!../index'], message: 'src/nest uses the public API only: import it from ../index.' }),
);
