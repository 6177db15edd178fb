import { join } from 'node:path';
import { Agent, MCPServerStdio, OpenAIProvider, Runner } from '@openai/agents';
import { callOnce, FakeOpenAI } from './support/openai-fake';
import { strictToolViolations } from './support/strict-rules';
import { stdioChildProgram } from './support/stdio-child';

/**
 * The Agents SDK's `MCPServerStdio`: it starts our server (support/openai-stdio-server.ts, the fixture's
 * `Everything`) as a child process, and the agent calls `order` through it, its model the recording fake.
 *
 * The child is plain Node with a require hook: the test's own files (the fixture, the server) compiled with
 * TypeScript's `transpileModule` and `emitDecoratorMetadata` (so the fixture's parameter types reach the server), the
 * library's sources by esbuild. `TZ=UTC` makes the `Date` in the tool's answer read the same everywhere.
 */

const HOOK = stdioChildProgram(join(__dirname, 'support', 'openai-stdio-server.ts'));

/** `order`'s arguments as a strict-mode model sends them: every property, `null` for each optional one. */
const ORDER_ARGS = {
  customer: 'Ann',
  count: 3,
  coupon: null,
  level: null,
  id: '123e4567-e89b-12d3-a456-426614174000',
  day: null,
  when: '2026-12-02T10:30:00Z',
  where: 'https://example.com/',
  data: 'AQID',
  tags: ['a', 'b'],
  prices: {},
  lines: [{ sku: 'x', qty: null, note: null }],
  sizes: [1, 2],
  wait: '00:00:01',
};

async function runAgainst(listing: 'exact' | 'openai-strict') {
  const fake = new FakeOpenAI(callOnce('order', ORDER_ARGS));
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const mcp = new MCPServerStdio({
    name: 'orders',
    command: process.execPath,
    args: ['-e', HOOK, listing],
    env: { ...(process.env as Record<string, string>), TZ: 'UTC' },
    // A ceiling for a loaded 2-core machine, where the child compiles the library's sources before it answers (the
    // SDK's default of 5 s timed out in CI); not a timing assertion.
    clientSessionTimeoutSeconds: 60,
  });
  try {
    const baseURL = await fake.start();
    await mcp.connect();
    const agent = new Agent({
      name: 'clerk',
      instructions: 'Order what is asked.',
      model: 'gpt-4.1',
      mcpServers: [mcp],
      mcpConfig: { convertSchemasToStrict: true },
    });
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ baseURL, apiKey: 'test', useResponses: true }),
      tracingDisabled: true,
    });
    const result = await runner.run(agent, 'Three for Ann.');
    return { fake, finalOutput: result.finalOutput, warned: warn.mock.calls.length };
  } finally {
    warn.mockRestore();
    await mcp.close();
    await fake.close();
  }
}

const CHILD_MS = 30_000;

describe("MCPServerStdio with our server under listing 'openai-strict'", () => {
  let session: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => (session = await runAgainst('openai-strict')), CHILD_MS);

  it('sends order with strict: true, breaking no rule, and without a warning', () => {
    expect(session.fake.received.map((r) => r.tools.map((t) => `${t.name} strict:${t.strict}`))).toStrictEqual([
      ['order strict:true'],
      ['order strict:true'],
    ]);
    expect(strictToolViolations(session.fake.received.map((r) => r.tools))).toStrictEqual([]);
    expect(session.warned).toBe(0);
  });

  it("calls order with the model's nulls, which our server reads as absent (level low, day undefined)", () => {
    expect(session.fake.received.map((r) => r.toolOutputs)).toStrictEqual([
      [],
      [
        'Ann3nulllow123e4567-e89b-12d3-a456-426614174000undefinedWed Dec 02 2026 10:30:00 GMT+0000 (Coordinated Universal Time)https://example.com/3211,21000',
      ],
    ]);
    expect(session.finalOutput).toBe('done');
  });
});

describe("MCPServerStdio with our server under listing 'exact' (what the profile fixes)", () => {
  let session: Awaited<ReturnType<typeof runAgainst>>;
  beforeAll(async () => (session = await runAgainst('exact')), CHILD_MS);

  it('falls back to strict: false for order, warning twice (once per model request)', () => {
    expect(session.fake.received.map((r) => r.tools.map((t) => `${t.name} strict:${t.strict}`))).toStrictEqual([
      ['order strict:false'],
      ['order strict:false'],
    ]);
    expect(session.warned).toBe(2);
  });

  it('passes nulls through the non-strict tool untouched, and our exact reader refuses them', () => {
    expect(session.fake.received[1].toolOutputs).toStrictEqual([
      'Argument \'level\' is not valid. Expected one of: "low", "high".\n' +
        'Argument \'day\' is not valid. Expected an RFC 3339 date, such as "2026-12-02", got null.\n' +
        "Argument 'lines[0].qty' is not valid. Expected a whole number from 1 to 1000, such as 1.",
    ]);
  });
});
