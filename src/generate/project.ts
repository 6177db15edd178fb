import * as path from 'node:path';
import type * as TS from 'typescript';
import { OneModelContextError } from '../errors';

/** A failure of the command itself (bad arguments, no TypeScript, a broken tsconfig): printed, exit 1. */
export class GenerateError extends OneModelContextError {
  readonly code = 'GENERATE_FAILED';
}

/**
 * The project's own TypeScript (a peer dependency of this command only), else the one next to this
 * package. Only 5.x and 6.x have the compiler API this command uses; TypeScript 7's API is different.
 */
export function loadTypeScript(projectDir: string): typeof TS {
  let resolved: string;
  try {
    resolved = require.resolve('typescript', { paths: [projectDir, __dirname] });
  } catch {
    throw new GenerateError('onemodelcontext generate needs TypeScript 5.x or 6.x: npm install --save-dev typescript');
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the user's own TypeScript, found at run time
  const ts = require(resolved) as typeof TS;
  const major = Number(String(ts.version).split('.')[0]);
  if (typeof ts.createProgram !== 'function' || major < 5 || major > 6) {
    throw new GenerateError(
      `onemodelcontext generate needs TypeScript 5.x or 6.x; ${resolved} is ${String(ts.version)} (TypeScript 7 has no compatible compiler API).`,
    );
  }
  return ts;
}

/** Which declaration a decorator or type refers to, in terms this command knows. */
export interface Origin {
  /** `library`: declared in any other declaration file (the default library, `@types/node`, a package). */
  readonly from: 'onemodelcontext' | 'class-validator' | 'class-transformer' | 'library' | 'source';
  readonly name: string;
}

export interface Project {
  readonly ts: typeof TS;
  readonly program: TS.Program;
  readonly checker: TS.TypeChecker;
  readonly options: TS.CompilerOptions;
  /** The project's own source files (its `include`/`files`), declaration files left out. */
  readonly sources: readonly TS.SourceFile[];
  /** Resolves aliases (imports, re-exports) to the declaring symbol. */
  target(symbol: TS.Symbol | undefined): TS.Symbol | undefined;
  /** Where a symbol is declared: a name of this package, a validator or transformer decorator, a library. */
  originOf(symbol: TS.Symbol | undefined): Origin | undefined;
}

function formatConfigErrors(ts: typeof TS, errors: readonly TS.Diagnostic[], cwd: string): string {
  return ts.formatDiagnostics(errors, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  }).trimEnd();
}

/** Reads a tsconfig and creates the program (no type check of its own: only the declarations are read). */
export function openProject(configPath: string, exclude: string, cwd: string): Project {
  const ts = loadTypeScript(path.dirname(configPath));
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new GenerateError(formatConfigErrors(ts, [read.error], cwd));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
  const errors = parsed.errors.filter((e) => e.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new GenerateError(formatConfigErrors(ts, errors, cwd));
  const rootNames = parsed.fileNames.filter((f) => path.resolve(f) !== exclude);
  const program = ts.createProgram({ rootNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const checker = program.getTypeChecker();
  const sources = rootNames.map((f) => program.getSourceFile(f)).filter((s): s is TS.SourceFile => !!s && !s.isDeclarationFile);

  const target = (symbol: TS.Symbol | undefined) =>
    symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  const runtime = new Map<TS.Symbol, string>();
  const resolved = sources[0] && ts.resolveModuleName('onemodelcontext', sources[0].fileName, parsed.options, ts.sys).resolvedModule;
  const entry = resolved && program.getSourceFile(resolved.resolvedFileName);
  const moduleSymbol = entry && checker.getSymbolAtLocation(entry);
  for (const exported of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
    const declared = target(exported);
    if (declared) runtime.set(declared, exported.name);
  }

  const originOf = (symbol: TS.Symbol | undefined): Origin | undefined => {
    const declared = target(symbol);
    if (!declared) return undefined;
    const own = runtime.get(declared);
    if (own) return { from: 'onemodelcontext', name: own };
    const file = declared.declarations?.[0]?.getSourceFile();
    const where = file?.fileName.split(path.sep).join('/') ?? '';
    if (/\/node_modules\/class-validator\//.test(where)) return { from: 'class-validator', name: declared.name };
    if (/\/node_modules\/class-transformer\//.test(where)) return { from: 'class-transformer', name: declared.name };
    return { from: file?.isDeclarationFile ? 'library' : 'source', name: declared.name };
  };

  return { ts, program, checker, options: parsed.options, sources, target, originOf };
}
