import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer, type AuthInfo } from 'onemodelcontext';

/**
 * The search-first catalog over Streamable HTTP with `auth`, both eras, through the SDK v2 client: a token's
 * scopes decide what `search_tools` finds and `call_tool` runs, exactly as they decide the plain `tools/list`.
 */

const TOKENS: Readonly<Record<string, readonly string[]>> = { admin: ['admin'], plain: [] };

async function verify(token: string): Promise<AuthInfo | undefined> {
  const scopes = TOKENS[token];
  if (!scopes) return undefined;
  return { subject: token, clientId: 'c', scopes: [...scopes], expiresAt: Math.floor(Date.now() / 1000) + 3600, claims: {} };
}

let server: McpServer;
let url: string;

beforeAll(async () => {
  server = new McpServer({ name: 'search-http', version: '1' }, { catalog: 'search', logger: false });
  server.tool(
    'admin_report',
    { description: 'Writes the weather report of every city for administrators.', scopes: ['admin'] },
    () => 'report',
  );
  server.tool('forecast', { description: 'Forecasts the weather of a city.', params: { city: String } }, ({ city }) => `rain in ${city}`);
  ({ url } = await server.serveHttp({
    port: 0,
    auth: { issuer: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp', verify },
  }));
});

afterAll(() => server.shutdown());

async function clientWith(token: string, mode: 'legacy' | 'auto'): Promise<Client> {
  const client = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0].text;
const found = async (client: Client, query: string) =>
  (
    JSON.parse(textOf(await client.callTool({ name: 'search_tools', arguments: { query, limit: 20 } }))) as { tools: { name: string }[] }
  ).tools.map((t) => t.name);

describe.each(['legacy', 'auto'] as const)('over HTTP with auth (%s)', (mode) => {
  it('lists the three tools, finds and runs by the token’s scopes', async () => {
    const plain = await clientWith('plain', mode);
    expect((await plain.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
    expect(await found(plain, 'weather report city')).toEqual(['forecast']);
    const refused = await plain.callTool({ name: 'call_tool', arguments: { name: 'admin_report' } });
    expect(textOf(refused)).toBe('call_tool: no tool is named "admin_report"; search_tools finds the tools there are.');
    expect(textOf(await plain.callTool({ name: 'call_tool', arguments: { name: 'forecast', arguments: { city: 'Bergen' } } }))).toBe(
      'rain in Bergen',
    );
    const admin = await clientWith('admin', mode);
    expect(await found(admin, 'weather report city')).toEqual(['admin_report', 'forecast']);
    expect(textOf(await admin.callTool({ name: 'call_tool', arguments: { name: 'admin_report' } }))).toBe('report');
    await Promise.all([plain.close(), admin.close()]);
  });
});
