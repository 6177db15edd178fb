import type { Reply } from '../support/raw-http';
import { answerOf, modernRequest } from '../support/modern-http';
import { ensureBuilt } from './support/build';
import { startCluster, type Cluster } from './support/cluster';
import { TestIssuer, type TestClient } from './support/issuer';

/**
 * Per-tool authorization over several instances (issue 26): two instances of the cluster fixture behind nginx
 * (round robin, one worker, so consecutive requests alternate exactly), OAuth against a real authorization
 * server (oidc-provider) with `allowAnonymous` and an `authorize` policy by the `client_id` claim. Every
 * instance lists, refuses and challenges alike: the policy is a function of the request's caller, with no state
 * an instance could hold alone.
 */
jest.setTimeout(180_000);

const RESOURCE = 'http://mcp.cluster.test/mcp';
const CLERK: TestClient = { client_id: 'clerk', client_secret: 'clerk-secret-0123456789', scope: 'mcp' };
const MANAGER: TestClient = { client_id: 'manager', client_secret: 'manager-secret-0123456789', scope: 'mcp' };

let issuer: TestIssuer;
let cluster: Cluster;
const tokens = { clerk: '', manager: '' };

beforeAll(async () => {
  await ensureBuilt();
  issuer = await TestIssuer.start([CLERK, MANAGER]);
  tokens.clerk = await issuer.token(CLERK, CLERK.scope, RESOURCE);
  tokens.manager = await issuer.token(MANAGER, MANAGER.scope, RESOURCE);
  cluster = await startCluster({ size: 2, env: { AUTH_ISSUER: issuer.url, AUTH_RESOURCE: RESOURCE } });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await issuer?.stop();
});

/** One raw 2026-07-28 request through the balancer, with an optional bearer token. */
const call = (token: string | undefined, method: string, params: Record<string, unknown> = {}): Promise<Reply> =>
  modernRequest(cluster.balancer.url, method, params, { token });
const message = answerOf;

const toolNames = (reply: Reply) => (message(reply).result!.tools as { name: string }[]).map((t) => t.name);

it('every instance lists, refuses and challenges alike', async () => {
  const answeredBy = new Set<string>();
  for (let i = 0; i < 2; i++)
    answeredBy.add(
      (message(await call(tokens.clerk, 'tools/call', { name: 'instance', arguments: {} })).result!.content as { text: string }[])[0].text,
    );
  expect([...answeredBy].sort()).toEqual(['a', 'b']);
  // Five requests a round: each lands on the other instance in the next round.
  for (let round = 0; round < 2; round++) {
    const clerk = toolNames(await call(tokens.clerk, 'tools/list'));
    expect(clerk).toContain('instance');
    expect(clerk).not.toContain('flip');
    expect(toolNames(await call(tokens.manager, 'tools/list'))).toContain('flip');
    expect(message(await call(tokens.clerk, 'tools/call', { name: 'flip', arguments: {} })).error).toEqual({
      code: -32602,
      message: 'Unknown tool: flip',
    });
    expect(toolNames(await call(undefined, 'tools/list'))).toEqual([]);
    const challenge = await call(undefined, 'tools/call', { name: 'instance', arguments: {} });
    expect([challenge.status, challenge.headers['www-authenticate']]).toEqual([
      401,
      'Bearer resource_metadata="http://mcp.cluster.test/.well-known/oauth-protected-resource/mcp"',
    ]);
  }
});
