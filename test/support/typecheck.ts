import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.join(__dirname, '..', '..');

/**
 * Type-checks files as a user's project would: with the repository's compiler options (strict, legacy
 * decorators) against the built declarations (`dist/`, see `ensureBuilt`), which is what an installed
 * package offers. `virtual` files (absolute path → text) exist only in memory; give them a path inside the
 * repository so that their imports resolve from its `node_modules`. Returns one line per diagnostic,
 * `file:line:col - TSnnnn message`, file names relative to the repository.
 */
export function typeCheck(files: readonly string[], virtual: ReadonlyMap<string, string> = new Map()): string[] {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options: base } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const paths = {
    onemodelcontext: [path.join(root, 'dist/index.d.ts')],
    'onemodelcontext/nest': [path.join(root, 'dist/nest/index.d.ts')],
    'onemodelcontext/redis': [path.join(root, 'dist/redis/index.d.ts')],
  };
  const options: ts.CompilerOptions = { ...base, noEmit: true, types: ['node'], paths };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(file);
    return text === undefined ? getSourceFile.call(host, file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...files, ...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map(format);
}

function format(d: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  if (!d.file || d.start === undefined) return `TS${d.code} ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.relative(root, d.file.fileName)}:${line + 1}:${character + 1} - TS${d.code} ${text}`;
}
