import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.join(__dirname, '..', '..');

/**
 * Type-checks files as a user's project would: with the repository's compiler options (strict, legacy
 * decorators) against the built declarations (`dist/`, see `ensureBuilt`), which is what an installed
 * package offers. Returns one line per diagnostic, `file:line:col - TSnnnn message`, file names relative
 * to `base`.
 */
export function typeCheck(files: readonly string[], base: string = root): string[] {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const paths = {
    onemodelcontext: [path.join(root, 'dist/index.d.ts')],
    'onemodelcontext/nest': [path.join(root, 'dist/nest/index.d.ts')],
  };
  const program = ts.createProgram(files, { ...options, noEmit: true, types: ['node'], baseUrl: root, paths });
  return ts.getPreEmitDiagnostics(program).map((d) => format(d, base));
}

function format(d: ts.Diagnostic, base: string): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  if (!d.file || d.start === undefined) return `TS${d.code} ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.relative(base, d.file.fileName)}:${line + 1}:${character + 1} - TS${d.code} ${text}`;
}
