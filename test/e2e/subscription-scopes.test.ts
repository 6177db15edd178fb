import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer, Resource, type AuthorizeItem } from 'onemodelcontext';
import { answerOf, modernRequest } from '../support/modern-http';
import type { Reply } from '../support/raw-http';
import { TestIssuer } from './support/issuer';

/**
 * Issue 29: the same scope checks on every path to a resource. 2025's `resources/subscribe` checked a resource's
 * scopes; 2026-07-28's `subscriptions/listen` (which names the resources in `resourceSubscriptions`) did not. UI
 * resources (MCP Apps) could have no scopes. Real issuer, real HTTP. And `auth.authorize` on 2025's
 * `resources/subscribe`: a refused resource is answered as an unknown URI and its updates never reach the caller;
 * and on 2026-07-28's `subscriptions/listen`, where the policy was not asked: the same there.
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
let policyUrl: string;
const warnings: string[] = [];

/** Only the subject 'boss' may read (or follow) the secret note. */
function authorize(caller: { claims: Readonly<Record<string, unknown>> } | undefined, item: AuthorizeItem): boolean {
  return item.name !== 'notes://secret' || caller?.claims.sub === 'boss';
}

beforeAll(async () => {
  issuer = await TestIssuer.start([{ client_id: 'app', client_secret: 'app-secret-0123456789', scope: 'mcp' }]);
  const logger = { error: () => {}, warn: (message: string) => void warnings.push(message), info: () => {}, debug: () => {} };
  server = new McpServer({ name: 'notes', version: '1.0.0' }, { logger }).add(new Notes());
  server.addUiResource('ui://notes/view', { html: '<!doctype html><p>Notes</p>', scopes: ['notes:read'] });
  ({ url } = await server.serveHttp({ port: 0, auth: { issuer: issuer.url, scopes: ['mcp'] } }));
  ({ url: policyUrl } = await server.serveHttp({ port: 0, path: '/policy', auth: { issuer: issuer.url, scopes: ['mcp'], authorize } }));
});

afterAll(async () => {
  await server?.close();
  await issuer?.stop();
});

function tokenWith(scope: string, { sub = 'reader', aud = url } = {}): Promise<string> {
  return issuer.sign({ iss: issuer.url, aud, sub, client_id: 'app', scope, iat: now(), exp: now() + 300 });
}

function challengeOf(reply: Reply): string {
  return String(reply.headers['www-authenticate']);
}

describe('subscriptions/listen (2026-07-28)', () => {
  it('is refused with the scope challenge when a resource it names needs a scope the token lacks', async () => {
    const token = await tokenWith('mcp');
    const reply = await modernRequest(
      url,
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: ['notes://open', 'notes://secret'] } },
      { token },
    );
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
      new TypeError(
        `server.addUiResource('ui://notes/other'): 'scopes' must be a list of OAuth scopes without spaces, such as ['orders:read'].`,
      ),
    );
  });
});

describe('resources/subscribe with auth.authorize (2025-11-25 session)', () => {
  /** Subscribes a real v1 client as `sub` to both notes; returns the URIs of the updates it hears. */
  async function subscriber(sub: string): Promise<{ heard: string[]; close: () => Promise<void> }> {
    const token = await tokenWith('mcp notes:read', { sub, aud: policyUrl });
    const client = new V1Client({ name: `subscriber-${sub}`, version: '1.0.0' });
    const heard: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.push(n.params.uri));
    const transport = new V1Http(new URL(policyUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    expect(await client.subscribeResource({ uri: 'notes://secret' })).toEqual({});
    expect(await client.subscribeResource({ uri: 'notes://open' })).toEqual({});
    return { heard, close: () => client.close() };
  }

  async function until(heard: readonly string[], count: number): Promise<void> {
    for (let i = 0; i < 1000 && heard.length < count; i++) await new Promise((r) => setTimeout(r, 10));
  }

  it('accepts the subscription as for an unknown URI but never delivers the refused resource’s updates', async () => {
    const reader = await subscriber('reader');
    const boss = await subscriber('boss');
    // In order on each session's stream: once the open note's update has arrived, the secret one would have too.
    server.notifyResourceUpdated('notes://secret');
    server.notifyResourceUpdated('notes://open');
    await until(reader.heard, 1);
    await until(boss.heard, 2);
    await Promise.all([reader.close(), boss.close()]);
    expect(reader.heard).toEqual(['notes://open']);
    expect(boss.heard).toEqual(['notes://secret', 'notes://open']);
    expect(warnings.filter((w) => w.includes('notes://secret'))).toEqual([
      expect.stringContaining("auth.authorize refused client 'app' (subject 'reader') the resource 'notes://secret'"),
    ]);
  });
});

describe('subscriptions/listen with auth.authorize (2026-07-28)', () => {
  /** A real v2 client as `sub`, listening to both notes and an unknown URI; the filter acknowledged and the updates it hears. */
  async function listener(sub: string): Promise<{ honored: unknown; heard: string[]; close: () => Promise<void> }> {
    const token = await tokenWith('mcp notes:read', { sub, aud: policyUrl });
    const client = new V2Client({ name: `listener-${sub}`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const heard: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void heard.push(n.params.uri));
    await client.connect(new V2Http(new URL(policyUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const subscription = await client.listen({ resourceSubscriptions: ['notes://secret', 'notes://open', 'notes://unknown'] });
    return {
      honored: subscription.honoredFilter,
      heard,
      async close() {
        await subscription.close();
        await client.close();
      },
    };
  }

  async function until(heard: readonly string[], count: number): Promise<void> {
    for (let i = 0; i < 1000 && heard.length < count; i++) await new Promise((r) => setTimeout(r, 10));
  }

  it('acknowledges a refused resource as an unknown URI, logs the refusal, and never delivers its updates', async () => {
    warnings.length = 0;
    const reader = await listener('reader');
    const boss = await listener('boss');
    try {
      // The acknowledgement is the same for both: it does not tell the reader which resource it is refused.
      expect(JSON.stringify(reader.honored)).toBe('{"resourceSubscriptions":["notes://secret","notes://open","notes://unknown"]}');
      expect(JSON.stringify(boss.honored)).toBe(JSON.stringify(reader.honored));
      // In order on each stream: once the open note's update has arrived, the secret one would have too.
      server.notifyResourceUpdated('notes://secret');
      server.notifyResourceUpdated('notes://open');
      await until(reader.heard, 1);
      await until(boss.heard, 2);
    } finally {
      await Promise.all([reader.close(), boss.close()]);
    }
    expect(reader.heard).toEqual(['notes://open']);
    expect(boss.heard).toEqual(['notes://secret', 'notes://open']);
    expect(warnings.filter((w) => w.includes('notes://'))).toEqual([
      `auth.authorize refused client 'app' (subject 'reader') the resource 'notes://secret'; answered as an unknown resource (request "listen:0")`,
    ]);
  });
});
