// Jest runs every test file in a module registry of its own: a file that imports the library compiles the library,
// the MCP SDK and zod again, with `vm.compileFunction`, which V8's compilation cache does not serve (a sixth of the
// time of the test/server files went to parsing the same sources over and over). This keeps, for each module a
// worker compiles, the code cache V8 makes of its first compilation, and gives it to the later compilations of the
// same source (the `cachedData` option, as Node.js's own compile cache does): V8 then reads the compiled module
// instead of parsing it again. The same code runs; a cache V8 rejects is not used. test/support/quiet-environment.js
// loads this once in each worker process, before any test file.
const vm = require('node:vm');

const PATCHED = Symbol.for('onemodelcontext.test.code-cache');

if (!vm.compileFunction[PATCHED]) {
  const compileFunction = vm.compileFunction;
  /** @type {Map<string, { code: string, data: Buffer }>} By file name: the source compiled and V8's cache of it. */
  const cache = new Map();
  const cached = (code, params, options) => {
    const filename = options?.filename;
    if (filename === undefined || options.cachedData !== undefined || options.produceCachedData)
      return compileFunction(code, params, options);
    const kept = cache.get(filename);
    if (kept?.code === code) {
      const compiled = compileFunction(code, params, { ...options, cachedData: kept.data });
      if (!compiled.cachedDataRejected) return compiled;
    }
    const compiled = compileFunction(code, params, { ...options, produceCachedData: true });
    if (compiled.cachedDataProduced) cache.set(filename, { code, data: compiled.cachedData });
    return compiled;
  };
  cached[PATCHED] = true;
  vm.compileFunction = cached;
}
