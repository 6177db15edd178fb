import { deferValidatorInternals } from './decorators/lazy-validator-internals';

/**
 * What the package does to a process's start as it loads (imported first by the entry, so it runs before any
 * other module of the package is evaluated): class-validator's heavy internals wait for the first rule that runs,
 * and its decorator files for the first read of their exports.
 */
deferValidatorInternals();
