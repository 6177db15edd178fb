import type { Reply } from '../support/raw-http';
import { answerOf, modernRequest } from '../support/modern-http';
import { McpServer, RequestContext, Tool } from 'onemodelcontext';
import { TestIssuer } from './support/issuer';

/**
 * Issue 29: a signed `requestState` verifies only for the method, the tool and the caller (issuer, subject,
 * client) it was minted for. Before, one tool's state was accepted by another tool and by another caller: Bob
 * could replay the `{ approvedFor: 'alice', max: 50 }` minted for Alice. Real issuer (oidc-provider), real HTTP.
 */
jest.setTimeout(120_000);

class Approvals {
  @Tool({ description: 'Approves a budget for the caller, in two rounds.', scopes: [] })
  approve(ctx: RequestContext): string {
    if (ctx.requestState === undefined) ctx.requireInput({}, { approvedFor: ctx.auth?.subject ?? 'anyone', max: 50 });
    return `approved ${JSON.stringify(ctx.requestState)}`;
  }

  @Tool({ description: 'Spends under an approval, in two rounds.', scopes: [] })
  spend(ctx: RequestContext): string {
    if (ctx.requestState === undefined) ctx.requireInput({}, { step: 'confirm' });
    return `spent under ${JSON.stringify(ctx.requestState)}`;
  }
}

const now = () => Math.floor(Date.now() / 1000);

let issuer: TestIssuer;
let server: McpServer;
let url: string;
let openUrl: string;

beforeAll(async () => {
  issuer = await TestIssuer.start([{ client_id: 'app', client_secret: 'app-secret-0123456789', scope: 'mcp' }]);
  server = new McpServer({ name: 'approvals', version: '1.0.0' }, { logger: false }).add(new Approvals());
  ({ url } = await server.serveHttp({ port: 0, auth: { issuer: issuer.url, scopes: ['mcp'] } }));
  ({ url: openUrl } = await server.serveHttp({ port: 0, path: '/open' }));
});

afterAll(async () => {
  await server?.close();
  await issuer?.stop();
});

/** A JWT of the issuer for `sub` and `client_id`. */
function tokenOf(sub: string, clientId: string, target = url): Promise<string> {
  return issuer.sign({ iss: issuer.url, aud: target, sub, client_id: clientId, scope: 'mcp', iat: now(), exp: now() + 300 });
}

/** A 2026-07-28 `tools/call`, with the `requestState` of an earlier round when given. */
function callTool(target: string, token: string | undefined, name: string, requestState?: string): Promise<Reply> {
  const params = { name, arguments: {}, ...(requestState !== undefined && { requestState, inputResponses: {} }) };
  return modernRequest(target, 'tools/call', params, { token });
}

const messageOf = answerOf;

async function stateOf(target: string, token: string | undefined, name: string): Promise<string> {
  const first = messageOf(await callTool(target, token, name));
  expect(first.result?.resultType).toBe('input_required');
  return first.result!.requestState as string;
}

const textOf = (reply: Reply) => (messageOf(reply).result?.content as { text: string }[] | undefined)?.[0]?.text;
const REFUSED = { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } };

describe('a requestState is bound to its tool', () => {
  it('verifies for the tool that minted it', async () => {
    const state = await stateOf(openUrl, undefined, 'approve');
    expect(textOf(await callTool(openUrl, undefined, 'approve', state))).toBe('approved {"approvedFor":"anyone","max":50}');
  });

  it("is refused by another tool (before: spend ran under approve's state)", async () => {
    const state = await stateOf(openUrl, undefined, 'approve');
    expect(messageOf(await callTool(openUrl, undefined, 'spend', state)).error).toEqual(REFUSED);
  });
});

describe('a requestState is bound to its caller', () => {
  it('verifies for the caller it was minted for', async () => {
    const alice = await tokenOf('alice', 'app');
    const state = await stateOf(url, alice, 'approve');
    expect(textOf(await callTool(url, alice, 'approve', state))).toBe('approved {"approvedFor":"alice","max":50}');
  });

  it("is refused for another subject of the same client (before: Bob replayed Alice's approval)", async () => {
    const state = await stateOf(url, await tokenOf('alice', 'app'), 'approve');
    expect(messageOf(await callTool(url, await tokenOf('bob', 'app'), 'approve', state)).error).toEqual(REFUSED);
  });

  it('is refused for the same subject through another client', async () => {
    const state = await stateOf(url, await tokenOf('alice', 'app'), 'approve');
    expect(messageOf(await callTool(url, await tokenOf('alice', 'other-app'), 'approve', state)).error).toEqual(REFUSED);
  });

  it('is refused without a token when minted for a verified caller', async () => {
    const alice = await tokenOf('alice', 'app', url);
    const state = await stateOf(url, alice, 'approve');
    expect(messageOf(await callTool(openUrl, undefined, 'approve', state)).error).toEqual(REFUSED);
  });
});

describe('requestStateTtlSeconds', () => {
  it('refuses a lifetime that is not a whole number of seconds from 1', () => {
    expect(() => new McpServer({ name: 's', version: '1' }, { requestStateTtlSeconds: 0 })).toThrow(
      new TypeError('requestStateTtlSeconds takes a whole number of seconds from 1, for example { requestStateTtlSeconds: 600 }; got 0.'),
    );
  });
});
