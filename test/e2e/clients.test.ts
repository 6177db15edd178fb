import { fixtureServer, VIEW_HTML } from './fixture/src/fixture';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt } from './support/build';
import { waitUntil } from './support/wait';
import { connectClient, lastListedTools, textOf, type Flavour, type TestClient, type Transport } from './support/clients';

/**
 * The "done when": real clients of both SDK lines, at 2024-11-05, 2025-11-25 and 2026-07-28, over
 * a stdio child process (the fixture compiled by tsc) and over Streamable HTTP on 127.0.0.1.
 */
jest.setTimeout(120_000);

const CASES: readonly [string, Flavour, string][] = [
  ['v1 client at 2024-11-05', { client: 'v1', version: '2024-11-05' }, '2024-11-05'],
  ['v1 client at 2025-11-25', { client: 'v1', version: '2025-11-25' }, '2025-11-25'],
  ['v2 client in auto mode', { client: 'v2' }, '2026-07-28'],
];

const http = fixtureServer();
let url: URL;

beforeAll(async () => {
  await ensureBuilt();
  url = new URL((await http.serveHttp({ port: 0 })).url);
}, BUILD_HOOK_TIMEOUT_MS);

afterAll(() => http.close());

const expected = fixtureServer();

describe.each(['stdio', 'http'] as const)('over %s', (over: Transport) => {
  describe.each(CASES)('%s', (_label, flavour, version) => {
    let client: TestClient;

    beforeAll(async () => {
      client = await connectClient(flavour, over, url);
    });

    afterAll(() => client.close());

    it('negotiates the revision and fills RequestContext from the real request', async () => {
      const seen = JSON.parse(textOf(await client.callTool('whoami')));
      expect(seen).toEqual({
        protocolVersion: version,
        client: flavour.client === 'v1' ? 'e2e-v1' : 'e2e-v2',
        capabilities: ['extensions'],
        session: over === 'http' && flavour.client === 'v1',
      });
    });

    it('lists the tools byte for byte as listTools() returns them', async () => {
      await client.listTools();
      expect(lastListedTools(client.received)).toBe(JSON.stringify(expected.listTools()));
    });

    it('calls a tool', async () => {
      expect(textOf(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
    });

    it('returns a record as structuredContent and text', async () => {
      const result = await client.callTool('note', { title: 'Hi' });
      expect(JSON.stringify(result.structuredContent)).toBe('{"title":"Hi","stars":3}');
      expect(textOf(result)).toBe('{"title":"Hi","stars":3}');
    });

    it('answers invalid arguments with an isError result', async () => {
      const result = await client.callTool('add', { a: 2, b: 'three' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("Argument 'b' is not valid. Expected a whole number from -2147483648 to 2147483647, such as 0.");
    });

    it('answers an unknown tool with JSON-RPC -32602', async () => {
      await expect(client.callTool('nope')).rejects.toMatchObject({ code: -32602 });
    });

    it('delivers progress', async () => {
      const progress: unknown[] = [];
      const result = await client.callTool('progress', { steps: 3 }, { onprogress: (p) => progress.push(p) });
      expect(textOf(result)).toBe('done in 3');
      const sent = client.received
        .filter((m) => m.method === 'notifications/progress')
        .map((m) => {
          const { progressToken: _, ...rest } = m.params as Record<string, unknown>;
          return rest;
        });
      const expected = [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` }));
      expect(sent).toEqual(expected);
      expect(progress).toEqual(expected);
    });

    it('aborts the signal of a cancelled tool', async () => {
      const controller = new AbortController();
      const running = client.callTool('wait', {}, { signal: controller.signal });
      await waitUntil('the wait tool to start', async () => textOf(await client.callTool('last_wait')) === 'waiting');
      controller.abort('user cancelled');
      await expect(running).rejects.toThrow('user cancelled');
      await waitUntil('the server to see the cancellation', async () => textOf(await client.callTool('last_wait')) === 'cancelled');
    });

    it('reads a static resource and a template with a typed variable', async () => {
      expect(await client.readResource('fixture://readme')).toMatchObject({
        contents: [{ uri: 'fixture://readme', mimeType: 'text/plain', text: 'Read me.' }],
      });
      expect(await client.readResource('fixture://notes/7')).toMatchObject({
        contents: [{ uri: 'fixture://notes/7', mimeType: 'application/json', text: '{"id":7}' }],
      });
    });

    it('serves the UI resource as an MCP App', async () => {
      expect(await client.readResource('ui://fixture/view')).toMatchObject({
        contents: [{ uri: 'ui://fixture/view', mimeType: 'text/html;profile=mcp-app', text: VIEW_HTML }],
      });
    });

    it('refuses a bad template variable with -32602', async () => {
      await expect(client.readResource('fixture://notes/seven')).rejects.toMatchObject({ code: -32602 });
    });

    it(`answers an unknown resource with ${version === '2026-07-28' ? '-32602' : '-32002'}`, async () => {
      await client.readResource('fixture://nothing').catch(() => undefined);
      const error = client.received.filter((m) => m.error).pop()!.error as { code: number; data?: { uri?: string } };
      expect(error).toMatchObject({ code: version === '2026-07-28' ? -32602 : -32002, data: { uri: 'fixture://nothing' } });
    });

    it('gets a prompt with typed arguments', async () => {
      const result = await client.getPrompt('greet', { name: 'Ada', tone: 'Pirate' });
      expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Greet Ada in a pirate tone.' } }]);
    });

    it('refuses a bad prompt argument with -32602', async () => {
      await expect(client.getPrompt('greet', { name: 'Ada', tone: 'Grumpy' })).rejects.toMatchObject({ code: -32602 });
    });

    it('completes an enum prompt argument', async () => {
      const result = await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'tone', value: 'P' } });
      expect(result).toMatchObject({ completion: { values: ['Pirate'], total: 1, hasMore: false } });
    });
  });
});
