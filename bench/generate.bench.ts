import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, recordGoal } from './fixtures/goals';

/**
 * Issue 35, item 9: `onemodelcontext generate` on a small project (three classes, class-validator, @types/node,
 * the built package as node_modules/onemodelcontext).
 *   generate three classes, cold process: the CLI from spawn to exit, beside `tsc --noEmit` of the same project
 *   with the classic compiler (what reading the project once costs the compiler itself). Goal: under 1 s.
 *   watch, one file changed: a GenerateSession's run after one source file changed, beside a fresh session's
 *   first run in the same process (the compiler already loaded), for information.
 */

const ROOT = resolve(__dirname, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PROJECT = join(ROOT, 'dist-bench', 'generate-project');

const SOURCES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'commonjs',
      lib: ['ES2022'],
      types: ['node'],
      strict: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ['src'],
  }),
  'src/weather.ts': `import { Int32, Param, Range, RequestContext, Tool } from 'onemodelcontext';
export enum Unit { Celsius = 'celsius', Fahrenheit = 'fahrenheit' }
export class WeatherTools {
  /** Gets the forecast @param city City name */
  @Tool({ readOnly: true })
  async getForecast(city: string, @Param({ type: Int32 }) @Range(1, 14) days: number = 3, unit: Unit = Unit.Celsius, ctx?: RequestContext): Promise<string> {
    return \`\${city} \${days} \${unit} \${String(ctx)}\`;
  }
}
`,
  'src/orders.ts': `import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Tool } from 'onemodelcontext';
export class Line {
  /** The product */
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}
export class Order {
  lines!: Line[];
  note?: string | null;
  @IsOptional() @IsInt() skip?: number;
}
export class OrderTools {
  /** Places an order */
  @Tool() placeOrder(order: Order, tags: string[]): string {
    return \`\${order.lines.length} \${tags.join()}\`;
  }
}
`,
  'src/notes.ts': `import { Prompt, Resource } from 'onemodelcontext';
export class Notes {
  /** One note */
  @Resource('notes://{id}') read(id: string): string {
    return id;
  }
  /** Summarise */
  @Prompt() summarise(topic: 'short' | 'long'): string {
    return topic;
  }
}
`,
};

function writeProject(): void {
  rmSync(PROJECT, { recursive: true, force: true });
  for (const [file, text] of Object.entries(SOURCES)) {
    mkdirSync(join(PROJECT, file, '..'), { recursive: true });
    writeFileSync(join(PROJECT, file), text);
  }
  mkdirSync(join(PROJECT, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(PROJECT, 'node_modules', 'onemodelcontext'), 'dir');
}

function timed(args: readonly string[]): number {
  const started = performance.now();
  execFileSync(process.execPath, [...args], { cwd: PROJECT, stdio: 'pipe' });
  return performance.now() - started;
}

function main(): void {
  writeProject();
  const cli = join(ROOT, 'dist', 'generate', 'cli.js');
  const tsc = join(ROOT, 'node_modules', 'typescript', 'lib', 'tsc.js');
  timed([cli, 'generate']);
  const ours: number[] = [];
  const tscRuns: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    ours.push(timed([cli, 'generate']));
    tscRuns.push(timed([tsc, '--noEmit', '-p', 'tsconfig.json']));
  }
  const generateMs = median(ours);
  const tscMs = median(tscRuns);
  console.log(`generate three classes, cold process: ${generateMs.toFixed(0)} ms; tsc --noEmit: ${tscMs.toFixed(0)} ms`);
  recordGoal({
    measure: 'generate three classes, cold process (spawn to exit): ms, vs tsc --noEmit of the project; floor: the 1 s goal',
    ours: `${generateMs.toFixed(0)} ms`,
    baseline: `${tscMs.toFixed(0)} ms`,
    floor: '1000 ms',
    ratio: generateMs / 1000,
    goal: 1,
    direction: 'at most',
    vs: 'floor',
  });

  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built package, as a user runs it
  const { GenerateSession } = require(join(ROOT, 'dist', 'cli', 'main.js')) as typeof import('../src/cli/main');
  const host = { cwd: PROJECT, readFile: () => undefined, writeFile: () => undefined, stdout: () => undefined, stderr: () => undefined };
  const session = new GenerateSession({}, host);
  session.run();
  const changed = join(PROJECT, 'src', 'notes.ts');
  const watchRuns: number[] = [];
  const coldRuns: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    writeFileSync(changed, `${SOURCES['src/notes.ts']}// ${i}\n`);
    utimesSync(changed, new Date(), new Date(Date.now() + (i + 1) * 1000));
    let started = performance.now();
    session.run();
    watchRuns.push(performance.now() - started);
    if (session.cache.parsed.length !== 1) throw new Error(`a watch run read ${session.cache.parsed.length} files`);
    started = performance.now();
    new GenerateSession({}, host).run();
    coldRuns.push(performance.now() - started);
  }
  const watchMs = median(watchRuns);
  const coldMs = median(coldRuns);
  console.log(`watch, one file changed: ${watchMs.toFixed(0)} ms; a fresh session: ${coldMs.toFixed(0)} ms`);
  recordGoal({
    measure: 'watch: one file changed, regenerate: ms (vs a fresh session in the same process)',
    ours: `${watchMs.toFixed(0)} ms`,
    baseline: `${coldMs.toFixed(0)} ms`,
    ratio: coldMs / watchMs,
  });
}

main();
