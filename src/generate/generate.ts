import * as path from 'node:path';
import { collect } from './collect';
import { formatGenerateDiagnostic, Reporter } from './diagnostics';
import { emit } from './emit';
import { GenerateError, openProject, ProjectCache } from './project';

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
  return new GenerateSession(options, host).run();
}

/**
 * One project read again and again (the watch loop): each run reuses the files of the last that did not
 * change (neither parsed nor bound again), and writes the module only when its text changed.
 */
export class GenerateSession {
  readonly cache = new ProjectCache();
  private readonly configPath: string;
  private readonly outFile: string;
  private readonly shown: string;

  constructor(
    private readonly options: GenerateOptions,
    private readonly host: GenerateHost,
  ) {
    this.configPath = path.resolve(host.cwd, options.project ?? 'tsconfig.json');
    this.outFile = options.out
      ? path.resolve(host.cwd, options.out)
      : path.resolve(path.dirname(this.configPath), 'src/onemodelcontext.facts.ts');
    this.shown = path.relative(host.cwd, this.outFile).split(path.sep).join('/');
  }

  /** The module this session writes. */
  get out(): string {
    return this.outFile;
  }

  /**
   * Reads the project and writes the facts of every class it can read; prints a diagnostic for each one it
   * cannot, which is left out (exit 1). Returns the exit code.
   */
  run(): number {
    const { host, options, shown, outFile } = this;
    try {
      const project = openProject(this.configPath, outFile, host.cwd, options.typescript, this.cache);
      const reporter = new Reporter();
      const collected = collect(project, reporter);
      const problems = reporter.all;
      for (const d of problems) host.stderr(formatGenerateDiagnostic(d, host.cwd));
      const text = emit(collected, outFile, project.options, project.ts);
      const current = host.readFile(outFile);
      const count = `${collected.classes.length} class${collected.classes.length === 1 ? '' : 'es'}`;
      const errors = `${problems.length} error${problems.length === 1 ? '' : 's'}`;
      const leftOut = collected.leftOut > 0 ? ` (${collected.leftOut} left out: see the errors above)` : '';
      if (options.check) {
        if (current === text) {
          if (problems.length > 0) {
            host.stderr(`Found ${errors}; ${shown} is up to date with the facts of ${count}${leftOut}.`);
            return 1;
          }
          host.stdout(`${shown} is up to date.`);
          return 0;
        }
        host.stderr(
          `${problems.length > 0 ? `Found ${errors}; ` : ''}${shown} is ${current === undefined ? 'missing' : 'stale'}: run onemodelcontext generate.`,
        );
        return 1;
      }
      if (current !== text) host.writeFile(outFile, text);
      const done = `${current === text ? 'Kept' : 'Wrote'} ${shown}: facts of ${count}${leftOut}.`;
      if (problems.length > 0) {
        host.stderr(`Found ${errors}. ${done}`);
        return 1;
      }
      host.stdout(done);
      return 0;
    } catch (error) {
      if (!(error instanceof GenerateError)) throw error;
      host.stderr(error.message);
      return 1;
    }
  }
}
