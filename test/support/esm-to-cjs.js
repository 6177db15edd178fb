// NestJS 12 and some of its dependencies ship ES modules only. Node loads them from CommonJS
// (require(esm), 20.19 and later), but Jest's own module system does so only on Node 24.9 and later, so
// for the in-process tests they are compiled to CommonJS here (esbuild, one file at a time, cached by Jest):
// `import.meta.url` becomes the file's URL (Nest resolves optional packages from it) and `import()` becomes
// `require()` (Jest runs no dynamic import without its experimental VM modules).
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { transformSync } = require('esbuild');

const SELF = createHash('sha256').update(readFileSync(__filename)).digest('hex');

const BANNER = "const __import_meta_url = require('node:url').pathToFileURL(__filename).href;";

module.exports = {
  getCacheKey(source, filename) {
    return createHash('sha256').update(SELF).update(filename).update(source).digest('hex');
  },
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: 'js',
      format: 'cjs',
      target: 'node20',
      banner: BANNER,
      define: { 'import.meta.url': '__import_meta_url' },
      supported: { 'dynamic-import': false },
      sourcemap: 'external',
      sourcefile: filename,
    });
    return { code, map };
  },
};
