import { DictionaryOf, McpServer, Param, Tool, type McpLogger } from '../../src';
import { answerOf, modernRequest } from '../support/modern-http';

/**
 * Issue 36: a type a provider profile cannot state is said once at definition time with the portable spelling,
 * also when the profile is given only on `serveHttp(...)` or `createHttpHandler(...)`, not on `new McpServer`.
 */

class Prices {
  @Tool() set(@Param({ type: DictionaryOf(Number) }) prices: Record<string, number>): void {}
}

class Stock {
  @Tool() stock(@Param({ type: DictionaryOf(Number) }) levels: Record<string, number>): void {}
}

const STRICT_WARNING = (where: string, name: string) =>
  `${where}: parameter '${name}' is a dictionary, which OpenAI strict function calling ('openai-strict') cannot state (no open object): it is listed as an object without properties, its values in words. ` +
  'For every profile, declare an array of key and value records instead, for example @Param({ type: [Entry] }) with class Entry { @Field() key!: string; @Field() value!: number }.';

function capture(): { logger: McpLogger; warnings: string[] } {
  const warnings: string[] = [];
  const logger: McpLogger = { error: () => {}, warn: (m) => void warnings.push(String(m)), info: () => {}, debug: () => {} };
  return { logger, warnings };
}

describe('definition-time warnings when only an HTTP endpoint names the profile', () => {
  it("serveHttp({ listing: 'openai-strict' }) says each dictionary once, and one of a tool added later", async () => {
    const { logger, warnings } = capture();
    const server = new McpServer({ name: 't', version: '1' }, { logger }).add(new Prices());
    expect(warnings).toEqual([]);
    const { port } = await server.serveHttp({ port: 0, host: '127.0.0.1', listing: 'openai-strict' });
    // The endpoint lists that profile indeed.
    const listed = answerOf(await modernRequest(`http://127.0.0.1:${port}/mcp`, 'tools/list', {}));
    const tools = (listed.result as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(JSON.stringify(tools.find((t) => t.name === 'set')!.inputSchema)).toBe(
      '{"type":"object","properties":{"prices":{"type":"object","description":"An object of any property names, each value a number.","properties":{},"additionalProperties":false}},"required":["prices"],"additionalProperties":false}',
    );
    server.createHttpHandler({ listing: 'openai-strict' });
    expect(warnings).toEqual([STRICT_WARNING('Prices.set', 'prices')]);
    server.add(new Stock());
    expect(warnings).toEqual([STRICT_WARNING('Prices.set', 'prices'), STRICT_WARNING('Stock.stock', 'levels')]);
    await server.close();
  });

  it("createHttpHandler({ listing: 'gemini' }) says it under Gemini's name; a function of the client under both", () => {
    const gemini = capture();
    new McpServer({ name: 't', version: '1' }, { logger: gemini.logger }).add(new Prices()).createHttpHandler({ listing: 'gemini' });
    expect(gemini.warnings).toEqual([
      "Prices.set: parameter 'prices' is a dictionary, which Gemini's function declarations ('gemini') cannot state (no open object): it is listed as an object without properties, its values in words. " +
        'For every profile, declare an array of key and value records instead, for example @Param({ type: [Entry] }) with class Entry { @Field() key!: string; @Field() value!: number }.',
    ]);
    const both = capture();
    new McpServer({ name: 't', version: '1' }, { logger: both.logger }).add(new Prices()).createHttpHandler({ listing: () => 'exact' });
    expect(both.warnings.map((w) => w.slice(w.indexOf('which'), w.indexOf(' cannot')))).toEqual([
      "which OpenAI strict function calling ('openai-strict')",
      "which Gemini's function declarations ('gemini')",
    ]);
  });

  it("nothing more is said when the server's own listing already named the profile, nor for an exact endpoint", () => {
    const named = capture();
    const server = new McpServer({ name: 't', version: '1' }, { logger: named.logger, listing: 'openai-strict' }).add(new Prices());
    server.createHttpHandler({ listing: 'openai-strict' });
    expect(named.warnings).toEqual([STRICT_WARNING('Prices.set', 'prices')]);
    const exact = capture();
    new McpServer({ name: 't', version: '1' }, { logger: exact.logger }).add(new Prices()).createHttpHandler({ listing: 'exact' });
    expect(exact.warnings).toEqual([]);
  });
});
