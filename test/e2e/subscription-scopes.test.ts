import { McpServer, Resource } from 'onemodelcontext';
import { answerOf, modernRequest } from '../support/modern-http';
import type { Reply } from '../support/raw-http';
import { TestIssuer } from './support/issuer';

/**
 * Issue 29: the same scope checks on every path to a resource. 2025's `resources/subscribe` checked a resource's
 * scopes; 2026-07-28's `subscriptions/listen` (which names the resources in `resourceSubscriptions`) did not. UI
 * resources (MCP Apps) could have no scopes. Real issuer, real HTTP.
 */
jest.setTimeout(120_000);

class Notes {
  @Resource('notes://secret', { description: 'A secret note.', scopes: ['notes:read'] })
  secret(): string {
    return 'the secret';
  }

  @Resource('notes://open', { description: 'An open note.', scopes: [] })
  open(): string {
    return 'open';
  }
}

const now = () => Math.floor(Date.now() / 1000);
let issuer: TestIssuer;
let server: McpServer;
let url: string;

beforeAll(async () => {
  issuer = await TestIssuer.start([{ client_id: 'app', client_secret: 'app-secret-0123456789', scope: 'mcp' }]);
  server = new McpServer({ name: 'notes', version: '1.0.0' }, { logger: false }).add(new Notes());
  server.addUiResource('ui://notes/view', { html: '<!doctype html><p>Notes</p>', scopes: ['notes:read'] });
  ({ url } = await server.serveHttp({ port: 0, auth: { issuer: issuer.url, scopes: ['mcp'] } }));
});

afterAll(async () => {
  await server?.close();
  await issuer?.stop();
});

function tokenWith(scope: string): Promise<string> {
  return issuer.sign({ iss: issuer.url, aud: url, sub: 'reader', client_id: 'app', scope, iat: now(), exp: now() + 300 });
}

function challengeOf(reply: Reply): string {
  return String(reply.headers['www-authenticate']);
}

describe('subscriptions/listen (2026-07-28)', () => {
  it('is refused with the scope challenge when a resource it names needs a scope the token lacks', async () => {
    const token = await tokenWith('mcp');
    const reply = await modernRequest(url, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['notes://open', 'notes://secret'] } }, { token });
    expect(reply.status).toBe(403);
    expect(challengeOf(reply)).toContain('error="insufficient_scope"');
    expect(challengeOf(reply)).toContain('notes:read');
  });
});

describe('UI resources', () => {
  it('are listed and read only with their scopes', async () => {
    const without = await tokenWith('mcp');
    const listed = answerOf(await modernRequest(url, 'resources/list', {}, { token: without }));
    expect((listed.result!.resources as { uri: string }[]).map((r) => r.uri)).toEqual(['notes://open']);
    const refused = await modernRequest(url, 'resources/read', { uri: 'ui://notes/view' }, { token: without });
    expect(refused.status).toBe(403);
    expect(challengeOf(refused)).toContain('notes:read');

    const withScope = await tokenWith('mcp notes:read');
    const all = answerOf(await modernRequest(url, 'resources/list', {}, { token: withScope }));
    expect((all.result!.resources as { uri: string }[]).map((r) => r.uri)).toEqual(['notes://secret', 'notes://open', 'ui://notes/view']);
    const read = answerOf(await modernRequest(url, 'resources/read', { uri: 'ui://notes/view' }, { token: withScope }));
    expect((read.result!.contents as { text: string }[])[0].text).toBe('<!doctype html><p>Notes</p>');
  });

  it('refuses scopes that are not OAuth scope tokens', () => {
    expect(() => server.addUiResource('ui://notes/other', { html: '<p></p>', scopes: ['has space'] })).toThrow(
      new TypeError(`server.addUiResource('ui://notes/other'): 'scopes' must be a list of OAuth scopes without spaces, such as ['orders:read'].`),
    );
  });
});
