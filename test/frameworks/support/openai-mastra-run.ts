/**
 * Run by test/frameworks/mastra.test.ts in a child Node.js process (through tsx): `@mastra/core` 0.24 requires an
 * ES-module-only package (`@sindresorhus/slugify`) that the suite's Jest setup does not transform, so Mastra runs
 * here, as it would in a user's ES module app. Argument: a JSON list of cases `{ mcpUrl, baseURL, args }`; for each,
 * Mastra's MCPClient lists our server's tools and calls `book` directly with `args`, then an Agent whose model is
 * the OpenAI-compatible config `{ id: 'openai/gpt-4.1', url: baseURL }` (the recording fake) runs a prompt. Writes one
 * JSON line: per case, the tool names, the direct call's result and the agent's text.
 */
import { Agent } from '@mastra/core/agent';
import { MCPClient } from '@mastra/mcp';

interface Case {
  readonly mcpUrl: string;
  readonly baseURL: string;
  readonly args: Record<string, unknown>;
}

export interface MastraOutcome {
  readonly tools: string[];
  readonly direct: unknown;
  readonly text: string;
}

async function run({ mcpUrl, baseURL, args }: Case, at: number): Promise<MastraOutcome> {
  const mcp = new MCPClient({ id: `shop-${at}`, servers: { shop: { url: new URL(mcpUrl) } } });
  try {
    const tools = await mcp.getTools();
    const book = tools.shop_book as { execute: (input: { context: unknown }) => Promise<unknown> };
    const direct = await book.execute({ context: args });
    const agent = new Agent({
      name: 'clerk',
      instructions: 'Book what is asked.',
      model: { id: 'openai/gpt-4.1', url: baseURL, apiKey: 'test' },
      tools,
    });
    const result = await agent.generate('Two seats for Ann.');
    return { tools: Object.keys(tools), direct, text: result.text };
  } finally {
    await mcp.disconnect();
  }
}

async function main(): Promise<void> {
  const cases = JSON.parse(process.argv[2]) as Case[];
  const outcomes: MastraOutcome[] = [];
  for (const [at, one] of cases.entries()) outcomes.push(await run(one, at));
  process.stdout.write(`${JSON.stringify(outcomes)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
