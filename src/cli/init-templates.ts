/**
 * The files `onemodelcontext init` writes, as text. The plain project is docs/getting-started.md's greeter; the
 * Nest one serves the same tool from a provider through `McpModule.forRoot`. Both test the tool with vitest, whose
 * transform emits no decorator metadata: `npm test` runs the generator first, and the facts module it writes
 * stands in for the metadata (the build runs it too, so the facts are never stale in dist/).
 */

/** The versions a new project pins: the ones this repository builds and tests with (test/cli/init.test.ts checks). */
export const TEMPLATE_VERSIONS = {
  typescript: '7.0.2',
  // TypeScript 7's package has no compiler API; the generator reads the sources with TypeScript 6's.
  '@typescript/typescript6': '6.0.2',
  '@types/node': '20.19.43',
  vitest: '4.1.12',
  '@nestjs/common': '12.5.1',
  '@nestjs/core': '12.5.1',
  'reflect-metadata': '0.2.2',
  rxjs: '7.8.2',
} as const;

/** One file to write: its path relative to the project folder, and its text. */
export interface TemplateFile {
  readonly path: string;
  readonly text: string;
}

/** What a template needs to know about the project. */
export interface TemplateContext {
  /** The npm package name (the folder's name, made valid). */
  readonly name: string;
  /** The range the project depends on onemodelcontext with (`^` and this package's version). */
  readonly library: string;
}

const pick = (...names: (keyof typeof TEMPLATE_VERSIONS)[]) => Object.fromEntries(names.map((name) => [name, TEMPLATE_VERSIONS[name]]));

function packageJson(context: TemplateContext, nest: boolean): string {
  const manifest = {
    name: context.name,
    version: '0.1.0',
    private: true,
    type: 'commonjs',
    scripts: {
      generate: 'onemodelcontext generate',
      build: 'onemodelcontext generate && tsc',
      start: 'node dist/main.js',
      test: 'onemodelcontext generate && vitest run',
    },
    dependencies: {
      ...(nest ? pick('@nestjs/common', '@nestjs/core') : {}),
      onemodelcontext: context.library,
      ...(nest ? pick('reflect-metadata', 'rxjs') : {}),
    },
    devDependencies: pick('@types/node', '@typescript/typescript6', 'typescript', 'vitest'),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

// The settings docs/getting-started.md explains, one by one: legacy decorators, metadata for tsc's build,
// nodenext (CommonJS, as "type" says), and rootDir/types, which TypeScript 6 and 7 no longer guess.
const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "skipLibCheck": true,
    "rootDir": "src",
    "outDir": "dist",
    "types": ["node"]
  },
  "include": ["src"]
}
`;

const GITIGNORE = `node_modules/
dist/
`;

const GREETER = `import { Int32, Param, Range, Tool } from 'onemodelcontext';

export class Greeter {
  @Tool({ description: 'Greets someone, a number of times' })
  greet(name: string, @Range(1, 5) @Param({ type: Int32 }) times: number = 1): string {
    return Array.from({ length: times }, () => \`Hello, \${name}!\`).join('\\n');
  }
}
`;

const PLAIN_SERVER = `import './onemodelcontext.facts';
import { McpServer } from 'onemodelcontext';
import { Greeter } from './greeter';

export function createServer(): McpServer {
  return new McpServer({ name: 'greeter', version: '1.0.0' }).add(new Greeter());
}
`;

const PLAIN_MAIN = `import { createServer } from './server';

createServer()
  .serveStdio()
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
`;

const PLAIN_TEST = `import { expect, it } from 'vitest';
import { createServer } from '../src/server';

it('greets as many times as asked', async () => {
  const server = createServer();
  expect(server.listTools().map((tool) => tool.name)).toEqual(['greet']);
  const result = await server.callTool('greet', { name: 'Ada', times: 2 });
  expect(result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!\\nHello, Ada!' }] });
});

it('refuses a count out of range without calling the method', async () => {
  const result = await createServer().callTool('greet', { name: 'Ada', times: 9 });
  expect(result.isError).toBe(true);
});
`;

const NEST_GREETER = `import { Injectable } from '@nestjs/common';
import { Int32, Param, Range, Tool } from 'onemodelcontext';

@Injectable()
export class Greeter {
  @Tool({ description: 'Greets someone, a number of times' })
  greet(name: string, @Range(1, 5) @Param({ type: Int32 }) times: number = 1): string {
    return Array.from({ length: times }, () => \`Hello, \${name}!\`).join('\\n');
  }
}
`;

const NEST_MODULE = `import './onemodelcontext.facts';
import { type DynamicModule, Module } from '@nestjs/common';
import { McpModule } from 'onemodelcontext/nest';
import { Greeter } from './greeter';

@Module({})
export class AppModule {
  /** 'stdio' serves the application's tools on stdin and stdout; 'none' only builds the server (the test's). */
  static register(transport: 'stdio' | 'none'): DynamicModule {
    return {
      module: AppModule,
      imports: [McpModule.forRoot({ name: 'greeter', version: '1.0.0', transport })],
      providers: [Greeter],
    };
  }
}
`;

const NEST_MAIN = `import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { StderrLogger } from 'onemodelcontext/nest';
import { AppModule } from './app.module';

// stdout carries the protocol, so Nest logs to stderr.
NestFactory.createApplicationContext(AppModule.register('stdio'), { logger: new StderrLogger() }).catch(
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
`;

const NEST_TEST = `import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { McpServer } from 'onemodelcontext';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppModule } from '../src/app.module';

let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;
let server: McpServer;

beforeAll(async () => {
  app = await NestFactory.createApplicationContext(AppModule.register('none'), { logger: false });
  server = app.get(McpServer);
});
afterAll(() => app.close());

it('greets as many times as asked', async () => {
  expect(server.listTools().map((tool) => tool.name)).toEqual(['greet']);
  const result = await server.callTool('greet', { name: 'Ada', times: 2 });
  expect(result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!\\nHello, Ada!' }] });
});

it('refuses a count out of range without calling the method', async () => {
  const result = await server.callTool('greet', { name: 'Ada', times: 9 });
  expect(result.isError).toBe(true);
});
`;

function readme(context: TemplateContext, nest: boolean): string {
  return `# ${context.name}

An MCP server${nest ? ' in a NestJS application' : ''}, written with onemodelcontext.

\`\`\`sh
npm install
npm test        # writes src/onemodelcontext.facts.ts, then runs vitest
npm run build   # the facts module again, then tsc into dist/
\`\`\`

Register it in an MCP client as the command \`node /absolute/path/to/${context.name}/dist/main.js\` (stdio).
Run \`npm run generate\` after changing a decorated class, and commit the facts module it writes.
`;
}

/** The files of a new project, in the order they are written. */
export function templateFiles(context: TemplateContext, nest: boolean): TemplateFile[] {
  const source: TemplateFile[] = nest
    ? [
        { path: 'src/greeter.ts', text: NEST_GREETER },
        { path: 'src/app.module.ts', text: NEST_MODULE },
        { path: 'src/main.ts', text: NEST_MAIN },
        { path: 'test/app.test.ts', text: NEST_TEST },
      ]
    : [
        { path: 'src/greeter.ts', text: GREETER },
        { path: 'src/server.ts', text: PLAIN_SERVER },
        { path: 'src/main.ts', text: PLAIN_MAIN },
        { path: 'test/server.test.ts', text: PLAIN_TEST },
      ];
  return [
    { path: 'package.json', text: packageJson(context, nest) },
    { path: 'tsconfig.json', text: TSCONFIG },
    { path: '.gitignore', text: GITIGNORE },
    { path: 'README.md', text: readme(context, nest) },
    ...source,
  ];
}
