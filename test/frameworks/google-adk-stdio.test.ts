import { join } from 'node:path';
import { MCPToolset, setLogger } from '@google/adk';
import { ADK_DECLARATIONS } from './support/google-adk-declarations';
import { violationLines } from './support/gemini-rules';
import { stdioChildProgram } from './support/stdio-child';

// ADK's CommonJS build requires `lodash-es`, which Jest cannot load as it ships (see support/google-lodash-es.ts).
jest.mock('lodash-es', () => jest.requireActual<typeof import('./support/google-lodash-es')>('./support/google-lodash-es').lodashEs());

/**
 * `@google/adk`'s `MCPToolset` over stdio: it starts our server (support/google-stdio-server.ts) as a child process,
 * lists its tools and stops it; the declarations are those it makes over Streamable HTTP (google-adk.test.ts).
 *
 * The child is plain Node with a require hook: the test's own files (the fixture, the server) compiled as ts-jest
 * compiles them here (`transpileModule` with `experimentalDecorators` and `emitDecoratorMetadata`, so that the
 * fixture's parameter types reach the server), the library's sources, which declare no decorated class of their
 * own on this path, by esbuild (fast; TypeScript takes seconds for all of them).
 */

// A ceiling for a loaded 2-core machine (servers, child processes), not a timing assertion.
jest.setTimeout(30_000);

const HOOK = stdioChildProgram(join(__dirname, 'support', 'google-stdio-server.ts'));

beforeAll(() => setLogger(null));
afterAll(() => setLogger(null));

it.each(['gemini', 'exact'] as const)('declares over stdio what it declares over HTTP, our server listing %s', async (listing) => {
  const toolset = new MCPToolset({
    type: 'StdioConnectionParams',
    serverParams: { command: process.execPath, args: ['-e', HOOK, listing] },
  });
  const tools = await toolset.getTools();
  expect(JSON.stringify(tools.map((tool) => tool._getDeclaration()))).toBe(ADK_DECLARATIONS[listing]);
  expect(violationLines(tools[0]._getDeclaration()?.parameters)).toEqual([]);
});
