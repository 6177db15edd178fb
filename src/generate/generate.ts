import * as path from 'node:path';
import { collect } from './collect';
import { formatGenerateDiagnostic, Reporter } from './diagnostics';
import { emit } from './emit';
import { GenerateError, openProject } from './project';

/** Options of `onemodelcontext generate`. */
export interface GenerateOptions {
  /** The tsconfig to read; default `tsconfig.json` in the working directory. */
  readonly project?: string;
  /** The module to write; default `src/onemodelcontext.facts.ts` beside the tsconfig. */
  readonly out?: string;
  /** Write nothing; fail when the module on disk is not what would be written. */
  readonly check?: boolean;
  /**
   * The compiler module whose classic API reads the sources (a package name or a path), instead of the
   * project's `typescript` or `@typescript/typescript6`; default: the ONEMODELCONTEXT_TYPESCRIPT variable.
   */
  readonly typescript?: string;
}

/** What the command touches outside the compiler: the generated file and the console. */
export interface GenerateHost {
  readonly cwd: string;
  readFile(file: string): string | undefined;
  writeFile(file: string, text: string): void;
  stdout(line: string): void;
  stderr(line: string): void;
  /** The environment variables read (ONEMODELCONTEXT_TYPESCRIPT); none when left out. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Runs the command; returns the exit code. */
export function generate(options: GenerateOptions, host: GenerateHost): number {
  const configPath = path.resolve(host.cwd, options.project ?? 'tsconfig.json');
  const outFile = options.out ? path.resolve(host.cwd, options.out) : path.resolve(path.dirname(configPath), 'src/onemodelcontext.facts.ts');
  const shown = path.relative(host.cwd, outFile).split(path.sep).join('/');
  try {
    const project = openProject(configPath, outFile, host.cwd, options.typescript);
    const reporter = new Reporter();
    const collected = collect(project, reporter);
    if (reporter.all.length > 0) {
      for (const d of reporter.all) host.stderr(formatGenerateDiagnostic(d, host.cwd));
      host.stderr(`Found ${reporter.all.length} error${reporter.all.length === 1 ? '' : 's'}; ${shown} was not written.`);
      return 1;
    }
    const text = emit(collected, outFile, project.options, project.ts);
    const current = host.readFile(outFile);
    if (options.check) {
      if (current === text) {
        host.stdout(`${shown} is up to date.`);
        return 0;
      }
      host.stderr(`${shown} is ${current === undefined ? 'missing' : 'stale'}: run onemodelcontext generate.`);
      return 1;
    }
    if (current !== text) host.writeFile(outFile, text);
    host.stdout(`${current === text ? 'Kept' : 'Wrote'} ${shown}: facts of ${collected.classes.length} class${collected.classes.length === 1 ? '' : 'es'}.`);
    return 0;
  } catch (error) {
    if (!(error instanceof GenerateError)) throw error;
    host.stderr(error.message);
    return 1;
  }
}
