/** Packages that ship ES modules only (NestJS 12 and what it imports, ArkType): see test/support/esm-to-cjs.js. */
const ESM_ONLY =
  '/node_modules/(@nestjs|file-type|strtok3|token-types|@tokenizer|@borewit|uint8array-extras|load-esm|arktype|@ark|arkregex)/';

/** @type {import('jest').Config['projects'][number]} */
const common = {
  testEnvironment: '<rootDir>/test/support/quiet-environment.js',
  roots: ['<rootDir>/test'],
  // Fixture projects import the package by name, as a user's project does (test/fixtures).
  // Sources compiled with "module": "nodenext" (the samples, and the facts modules the generator writes for
  // them) import './x.js' for ./x.ts, as Node's ES module rules want; Jest resolves the TypeScript file.
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^onemodelcontext$': '<rootDir>/src/index.ts',
    '^onemodelcontext/nest$': '<rootDir>/src/nest/index.ts',
    '^onemodelcontext/redis$': '<rootDir>/src/redis/index.ts',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
    [`${ESM_ONLY}.+\\.js$`]: '<rootDir>/test/support/esm-to-cjs.js',
  },
  // test/.newcomer, test/.init, test/.tscompat, test/.nest11, test/.pack: projects and tarballs the end-to-end tests install or compile, whose own
  // tests and package.json files are theirs, not this suite's.
  modulePathIgnorePatterns: ['<rootDir>/test/\\.[^/]+/'],
  // Fails a test that leaves an unhandled rejection behind (test/support/unhandled-rejections.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/unhandled-rejections.ts'],
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY.slice('/node_modules/'.length)})`],
};

/** @type {import('jest').Config} */
module.exports = {
  // Jest's default is one worker fewer than the cores: one worker on a 2-core machine, where much of the suite's
  // time is spent waiting on child processes (servers, compilers, npm) and the network. One more worker than the
  // cores: on 2 cores, while two files wait (the installs of test/e2e/newcomer and test/e2e/init the first minute),
  // a third keeps the cores busy.
  maxWorkers: Math.max(2, require('node:os').availableParallelism() + 1),
  // A test or hook that has not settled in a minute fails (files that start servers, compilers or npm set longer
  // ones of their own). Jest's default, 5 s, failed tests that take a fraction of a second on an idle machine (a Nest
  // application started and called, 2,000 sessions opened and swept) when the machine was loaded. (A project's
  // own testTimeout is not read: it is an option of the whole run.)
  testTimeout: 60_000,
  // The slowest files first, in a fresh clone too (test/support/sequencer.js).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    {
      ...common,
      displayName: 'default',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['<rootDir>/test/no-codegen/', '<rootDir>/test/\\.[^/]+/'],
    },
    {
      // The reading suites again where code generation is forbidden: record readers and result checks
      // run interpreted and must give the same answers. (The differential test needs ajv, which
      // generates code itself; it compares both reader kinds in the default project, and the deliberate
      // differences are pinned against ajv there too.)
      ...common,
      displayName: 'no-codegen',
      testEnvironment: '<rootDir>/test/support/no-codegen-environment.js',
      testMatch: ['<rootDir>/test/invoke/**/*.test.ts', '<rootDir>/test/no-codegen/**/*.test.ts'],
      testPathIgnorePatterns: ['<rootDir>/test/invoke/differential.test.ts', '<rootDir>/test/invoke/deliberate-differences.test.ts'],
    },
  ],
};
