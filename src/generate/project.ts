import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as TS from 'typescript';
import { OneModelContextError } from '../errors';

/** A failure of the command itself (bad arguments, no TypeScript, a broken tsconfig): printed, exit 1. */
export class GenerateError extends OneModelContextError {
  readonly code = 'GENERATE_FAILED';
}

/** The compiler module that still ships the classic API next to TypeScript 7 (whose `typescript` has none). */
export const CLASSIC_API_PACKAGE = '@typescript/typescript6';

/** The environment variable that names the compiler module, like `--typescript`. */
export const TYPESCRIPT_ENV = 'ONEMODELCONTEXT_TYPESCRIPT';

const FIX = `npm install --save-dev ${CLASSIC_API_PACKAGE}`;

/** A module found on disk: where, and what it exports. */
interface Found {
  readonly file: string;
  readonly module: Partial<typeof TS>;
}

function find(request: string, paths: readonly string[]): Found | undefined {
  let file: string;
  try {
    file = require.resolve(request, { paths: [...paths] });
  } catch {
    return undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the user's own compiler, found at run time
  return { file, module: require(file) as Partial<typeof TS> };
}

/** Whether a compiler module has the classic (5.x/6.x) API: TypeScript 7's `typescript` exports only its version. */
function isClassic(found: Found | undefined): found is { file: string; module: typeof TS } {
  if (!found || typeof found.module.createProgram !== 'function') return false;
  return Number(String(found.module.version).split('.')[0]) >= 5;
}

/**
 * The compiler whose API this command uses: the module `explicit` names (`--typescript`, else the
 * ONEMODELCONTEXT_TYPESCRIPT variable) when given; else the project's `typescript` when it has the classic API
 * (5.x, 6.x); else `@typescript/typescript6`, which TypeScript 7 projects install beside it. Each is looked up
 * from the project, then next to this package. Which one read the sources does not change the facts written.
 */
export function loadTypeScript(projectDir: string, cwd: string, explicit?: string): typeof TS {
  const paths = [projectDir, __dirname];
  if (explicit) {
    const request = explicit.startsWith('.') || path.isAbsolute(explicit) ? path.resolve(cwd, explicit) : explicit;
    const chosen = find(request, [cwd, ...paths]);
    if (isClassic(chosen)) return chosen.module;
    throw new GenerateError(
      chosen
        ? `The compiler module '${explicit}' (${chosen.file}, version ${String(chosen.module.version)}) has no classic TypeScript compiler API (5.x or 6.x); ${FIX} and pass --typescript ${CLASSIC_API_PACKAGE}, or leave the option out.`
        : `The compiler module '${explicit}' given by --typescript or ${TYPESCRIPT_ENV} cannot be found from ${projectDir}; ${FIX} and pass --typescript ${CLASSIC_API_PACKAGE}.`,
    );
  }
  const own = find('typescript', paths);
  if (isClassic(own)) return own.module;
  const classic = find(CLASSIC_API_PACKAGE, paths);
  if (isClassic(classic)) return classic.module;
  throw new GenerateError(
    own
      ? `onemodelcontext generate reads sources with TypeScript's classic compiler API, which TypeScript ${String(own.module.version)} no longer ships; add the package that does, beside it: ${FIX}`
      : `onemodelcontext generate reads sources with TypeScript's classic compiler API, and this project has no TypeScript: ${FIX}`,
  );
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
  return ts
    .formatDiagnostics(errors, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => cwd,
      getNewLine: () => '\n',
    })
    .trimEnd();
}

/**
 * What one run leaves for the next in a watch loop: the compiler, the last program and every parsed file
 * with the modification time it was parsed at. A file that did not change is not parsed (nor bound) again.
 */
export class ProjectCache {
  ts?: typeof TS;
  program?: TS.Program;
  readonly files = new Map<string, { readonly stamp: string; readonly file: TS.SourceFile }>();
  /** Files parsed by the last run (for the watch loop's report and its tests). */
  parsed: string[] = [];
}

/** Packages whose declarations are read only for which of their names a decorator or type is. */
const NAME_ONLY_PACKAGES = /\/node_modules\/(?:class-validator|class-transformer|reflect-metadata)\//;

/** Node's declarations: global scripts and ambient modules, of which a run needs only the names the sources use. */
const NODE_TYPES = /\/node_modules\/@types\/node\//;

/** The keywords after which a declaration file names what it declares. */
const DECLARING = new Set(['interface', 'class', 'var', 'let', 'const', 'function', 'type', 'namespace', 'enum']);

/** Words, quoted texts and braces of a declaration file, comments left out. */
const TOKEN = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`|[A-Za-z_$][\w$]*|[{}]/g;

/**
 * What a declaration file makes reachable by name: its global declarations (at the top of a script, or in
 * `declare global { }`) and its ambient modules (`declare module "fs" { }`). The members of a module or a
 * namespace are reachable only through it.
 */
export function reachableNamesOf(text: string): ReadonlySet<string> {
  const names = new Set<string>();
  const topLevel: string[] = [];
  const stack: ('global' | 'module' | 'other')[] = [];
  let script = true;
  let previous = '';
  let before = '';
  for (const [token] of text.matchAll(TOKEN)) {
    if (token.startsWith('//') || token.startsWith('/*')) continue;
    if (token === '{') {
      const quoted = /^["']/.test(previous);
      stack.push(previous === 'global' ? 'global' : quoted && before === 'module' ? 'module' : 'other');
    } else if (token === '}') stack.pop();
    else if (stack.length === 0 && (token === 'import' || token === 'export')) script = false;
    if (/^["']/.test(token) && previous === 'module' && stack.length === 0) names.add(token.slice(1, -1));
    if (DECLARING.has(previous) && /^[A-Za-z_$]/.test(token)) {
      if (stack.length === 0) topLevel.push(token);
      else if (stack[stack.length - 1] === 'global' && stack.every((s) => s !== 'other')) names.add(token);
    }
    before = previous;
    previous = token;
  }
  if (script) topLevel.forEach((n) => names.add(n));
  return names;
}

/**
 * Every word and every quoted text of the project's own files: a superset of the names and module specifiers
 * they use (comments and strings included, so nothing they use is missed).
 */
export class UsedNames {
  readonly words = new Set<string>();

  add(text: string): void {
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*|["']([^"'\n]+)["']/g)) this.words.add(m[1] ?? m[0]);
  }

  /**
   * Whether a file of Node's declarations makes reachable nothing the project's files name: neither a global
   * nor a module they use. A file that makes nothing reachable of its own (`index.d.ts`, only references) is needed.
   */
  unneeded(text: string): boolean {
    const reachable = reachableNamesOf(text);
    return reachable.size > 0 && ![...reachable].some((n) => this.words.has(n));
  }
}

/** The folder of the package that declares `file` with the name `name`, if any. */
function packageRootOf(file: string, name: string): string | undefined {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    try {
      if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name === name) return dir + path.sep;
    } catch {
      // an unreadable manifest names no package
    }
  }
  return undefined;
}

function stampOf(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return undefined;
  }
}

/**
 * The compiler host of a run. Four things make a run cheap without changing what it reads:
 * - a declaration file's doc comments are not parsed (only the project's own are used);
 * - a file of `@types/node` that declares no name (global or module) any file of the project mentions is
 *   read as empty: the facts depend only on which declaration a name of the sources is (a `Buffer`, a `URL`,
 *   an `AbortSignal`), and those files are most of what a cold run parses and binds;
 * - the imports of other packages made by this package's declarations and by class-validator's and
 *   class-transformer's are not followed: only which of their names a decorator is matters, never the types
 *   of the SDK, zod or validator.js behind them;
 * - in a watch loop, a file whose modification time did not change is the same parsed (and bound) file.
 */
function hostOf(ts: typeof TS, options: TS.CompilerOptions, rootNames: readonly string[], cache: ProjectCache): TS.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const parse = host.getSourceFile.bind(host);
  const roots = new Set(rootNames.map((f) => path.resolve(f)));
  const entry = rootNames[0] && ts.resolveModuleName('onemodelcontext', rootNames[0], options, ts.sys).resolvedModule;
  const ownRoot = entry && packageRootOf(entry.resolvedFileName, 'onemodelcontext');
  const nameOnly = (file: string): boolean => {
    const resolved = path.resolve(file);
    if (roots.has(resolved)) return false;
    if (ownRoot && resolved.startsWith(ownRoot) && !resolved.slice(ownRoot.length).includes(`node_modules${path.sep}`)) return true;
    return NAME_ONLY_PACKAGES.test(resolved.split(path.sep).join('/'));
  };
  cache.parsed = [];
  const used = usedNamesOf(host, rootNames);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const declaration = fileName.endsWith('.d.ts');
    if (!declaration && !roots.has(path.resolve(fileName))) used.add(host.readFile(fileName) ?? '');
    const pruned = declaration && NODE_TYPES.test(fileName.split(path.sep).join('/')) && used.unneeded(host.readFile(fileName) ?? '');
    const stamp = stampOf(fileName);
    const key = `${fileName}|${JSON.stringify(languageVersion)}${pruned ? '|empty' : ''}`;
    const cached = cache.files.get(key);
    if (stamp !== undefined && cached?.stamp === stamp) return cached.file;
    // Not isObject: this tells TypeScript's `ScriptTarget | CreateSourceFileOptions` apart (a number or an options object).
    const setting = typeof languageVersion === 'object' ? languageVersion : { languageVersion };
    // JSDocParsingMode.ParseNone (TypeScript 5.3 and later; older versions ignore the option).
    const mode = declaration ? { ...setting, jsDocParsingMode: 1 } : setting;
    const file = pruned
      ? ts.createSourceFile(fileName, '', mode as TS.CreateSourceFileOptions)
      : parse(fileName, mode as TS.CreateSourceFileOptions, onError, shouldCreate);
    cache.parsed.push(fileName);
    if (file && stamp !== undefined) cache.files.set(key, { stamp, file });
    return file;
  };
  const resolutions = ts.createModuleResolutionCache(host.getCurrentDirectory(), (f) => host.getCanonicalFileName(f), options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSource) =>
    literals.map((literal) => {
      if (!literal.text.startsWith('.') && nameOnly(containingFile))
        return { resolvedModule: undefined } as TS.ResolvedModuleWithFailedLookupLocations;
      const mode = ts.getModeForUsageLocation(containingSource, literal, compilerOptions);
      return ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, resolutions, redirected, mode);
    });
  return host;
}

/** The names the project's own files use, from their text. */
function usedNamesOf(host: TS.CompilerHost, rootNames: readonly string[]): UsedNames {
  const used = new UsedNames();
  for (const file of rootNames) used.add(host.readFile(file) ?? '');
  return used;
}

/** Reads a tsconfig and creates the program (no type check of its own: only the declarations are read). */
export function openProject(configPath: string, exclude: string, cwd: string, compiler?: string, cache = new ProjectCache()): Project {
  const ts = (cache.ts ??= loadTypeScript(path.dirname(configPath), cwd, compiler));
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new GenerateError(formatConfigErrors(ts, [read.error], cwd));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
  const errors = parsed.errors.filter((e) => e.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new GenerateError(formatConfigErrors(ts, errors, cwd));
  const rootNames = parsed.fileNames.filter((f) => path.resolve(f) !== exclude);
  const host = hostOf(ts, parsed.options, rootNames, cache);
  const program = ts.createProgram({
    rootNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host,
    oldProgram: cache.program,
  });
  cache.program = program;
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
