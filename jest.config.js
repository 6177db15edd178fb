/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Fixture projects import the package by name, as a user's project does (test/fixtures).
  moduleNameMapper: { '^onemodelcontext$': '<rootDir>/src/index.ts', '^onemodelcontext/nest$': '<rootDir>/src/nest/index.ts', '^onemodelcontext/redis$': '<rootDir>/src/redis/index.ts' },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
};
