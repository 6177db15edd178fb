import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT, ensureBuilt } from './support/build';

/**
 * Per-tool authorization over stdio (issue 26): there are no tokens, the process owner is the caller, so
 * `public` and `scopes` change nothing: every member is listed and callable, no tool carries
 * `securitySchemes`, and `ctx.auth` is undefined. Real SDK clients (v1 and v2) spawn the compiled fixture.
 */
jest.setTimeout(120_000);

const GUARDED_MAIN = join(ROOT, 'test/e2e/fixture/dist/guarded-main.js');
const stdio = { command: process.execPath, args: [GUARDED_MAIN], stderr: 'pipe' as const };

beforeAll(() => ensureBuilt(), 300_000);

const names = (items: readonly { name: string }[]) => items.map((i) => i.name);

it.each(['v1', 'v2'] as const)('the %s client lists and calls every member, scoped or public, as the process owner', async (flavour) => {
  const client =
    flavour === 'v1'
      ? new V1Client({ name: 'owner', version: '1' })
      : new V2Client({ name: 'owner', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await (client as V1Client).connect((flavour === 'v1' ? new V1Stdio(stdio) : new V2Stdio(stdio)) as never);
  try {
    const { tools } = await (client as V1Client).listTools();
    expect(names(tools)).toEqual(['search', 'place_order', 'whoami']);
    for (const tool of tools) {
      expect(Object.keys(tool)).not.toContain('securitySchemes');
      expect(tool._meta).toBeUndefined();
    }
    expect(names((await (client as V1Client).listPrompts()).prompts)).toEqual(['audit']);
    expect((await (client as V1Client).callTool({ name: 'place_order', arguments: { item: 'tea' } })).content).toEqual([
      { type: 'text', text: 'placed tea' },
    ]);
    expect((await (client as V1Client).callTool({ name: 'whoami', arguments: {} })).content).toEqual([
      { type: 'text', text: 'the process owner' },
    ]);
    expect((await (client as V1Client).getPrompt({ name: 'audit' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Audit every order.' } },
    ]);
  } finally {
    await (client as V1Client).close();
  }
});
