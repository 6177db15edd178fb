import { join, sep } from 'node:path';

const SRC = join(__dirname, '..', '..', '..', 'src') + sep;

/**
 * The `-e` program of a stdio child that serves `server` (a test file): plain Node with a require hook. The test's
 * own files (the fixture, the server) are compiled as ts-jest compiles them here (`transpileModule` with
 * `experimentalDecorators` and `emitDecoratorMetadata`, so that the fixture's parameter types reach the server), the
 * library's sources, which declare no decorated class of their own on this path, by esbuild (fast; TypeScript takes
 * seconds for all of them).
 */
export function stdioChildProgram(server: string): string {
  return `
const ts = require(${JSON.stringify(require.resolve('typescript'))});
const esbuild = require(${JSON.stringify(require.resolve('esbuild'))});
const fs = require('node:fs');
require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const code = filename.startsWith(${JSON.stringify(SRC)})
    ? esbuild.transformSync(source, { loader: 'ts', format: 'cjs', target: 'node20', sourcefile: filename }).code
    : ts.transpileModule(source, {
        fileName: filename,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true },
      }).outputText;
  module._compile(code, filename);
};
require(${JSON.stringify(server)});
`;
}
