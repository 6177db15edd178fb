import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ensureBuilt } from './support/build';
import { freePort, startCluster, startInstance, type Cluster } from './support/cluster';
import { textOf } from './support/clients';
import { eventsOf, LEGACY_HEADERS, open, openSession, until } from '../support/raw-http';
import { modernRequest } from '../support/modern-http';

/**
 * Three instances of the fixture behind a real nginx configured as samples/cluster and docs/scaling.md say.
 * 2026-07-28 clients are spread round robin (every request may land anywhere); a 2025-era client's requests go
 * to the instance that opened its session, named by the session id's prefix.
 */
jest.setTimeout(60_000);

// Compiling the fixture (with everything the e2e tests run) takes a while on a busy machine.
beforeAll(() => ensureBuilt(), 300_000);

const SECRET = 'a shared secret of at least thirty-two bytes';

async function modernClient(url: string): Promise<V2Client> {
  const client = new V2Client(
    { name: 'cluster-v2', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new V2Http(new URL(url)));
  return client;
}

async function legacyClient(url: string): Promise<{ client: V1Client; logs: unknown[] }> {
  const client = new V1Client({ name: 'cluster-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'hello' },
    model: 'm',
  }));
  await client.connect(new V1Http(new URL(url)));
  return { client, logs };
}

const call = async (client: V1Client | V2Client, name: string, args: Record<string, unknown> = {}) =>
  textOf((await client.callTool({ name, arguments: args })) as Record<string, unknown>);

describe('2026-07-28 clients, round robin over three instances', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ size: 3, env: { SECRET } });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('lists and calls tools, each request on the next instance', async () => {
    const client = await modernClient(cluster.balancer.url);
    const tools = (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['add', 'instance', 'confirm']));
    const served = [];
    for (let i = 0; i < 6; i++) served.push(await call(client, 'instance'));
    expect(new Set(served)).toEqual(new Set(['a', 'b', 'c']));
    expect(await call(client, 'add', { a: 2, b: 3 })).toBe('5');
    await client.close();
  });

  it('completes a multi-round elicitation whose rounds land on different instances', async () => {
    const client = await modernClient(cluster.balancer.url);
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    const rounds = JSON.parse(await call(client, 'confirm')) as { first: string; second: string };
    expect(asked).toEqual(['Sure?']);
    expect(rounds.first).not.toBe(rounds.second);
    await client.close();
  });

  it('finishes a call in progress on an instance told to stop (SIGTERM) while new requests go to the others', async () => {
    const client = await modernClient(cluster.balancer.url);
    let running: string | undefined;
    let reached!: () => void;
    const started = new Promise<void>((resolve) => (reached = resolve));
    const slow = client.callTool(
      { name: 'slow', arguments: { steps: 10 } },
      {
        onprogress: (p) => {
          running ??= p.message;
          reached();
        },
      },
    );
    await started;
    const stopping = cluster.instances.find((i) => i.name === running)!;
    const exited = stopping.stop('SIGTERM');
    const others: string[] = [];
    for (let i = 0; i < 6; i++) others.push(await call(client, 'instance'));
    expect(others).not.toContain(running);
    expect(textOf((await slow) as Record<string, unknown>)).toBe(`${running}: done in 10`);
    await exited;
    expect(stopping.child.signalCode).toBe('SIGTERM');
    await client.close();
  });
});

describe('2025-era clients, sticky by the Mcp-Session-Id prefix over three instances', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ size: 3, env: { SECRET } });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('keeps every request of a session on its instance, and spreads new sessions', async () => {
    const sessions = await Promise.all([1, 2, 3, 4, 5, 6].map(() => legacyClient(cluster.balancer.url)));
    const homes = [];
    for (const { client } of sessions) {
      const home = await call(client, 'instance');
      for (let i = 0; i < 3; i++) expect(await call(client, 'instance')).toBe(home);
      homes.push(home);
    }
    expect(new Set(homes).size).toBeGreaterThan(1);
    await Promise.all(sessions.map(({ client }) => client.close()));
  });

  it('delivers progress, logging and sampling through the balancer', async () => {
    const { client, logs } = await legacyClient(cluster.balancer.url);
    const progress: number[] = [];
    const home = await call(client, 'instance');
    const slow = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    expect(textOf(slow as Record<string, unknown>)).toBe(`${home}: done in 3`);
    expect(progress).toEqual([1, 2, 3]);
    await client.setLoggingLevel('warning');
    await call(client, 'warn');
    expect(logs).toEqual([{ level: 'warning', logger: 'cluster', data: { from: home } }]);
    expect(await call(client, 'sample')).toBe(`${home}: model said hello`);
    await client.close();
  });

  it('answers 404 to the sessions of an instance that died, and a new session opens on another', async () => {
    const { client } = await legacyClient(cluster.balancer.url);
    const home = await call(client, 'instance');
    await cluster.instances.find((i) => i.name === home)!.stop('SIGKILL');
    await expect(call(client, 'instance')).rejects.toMatchObject({ code: 404 });
    const again = await legacyClient(cluster.balancer.url);
    expect(['a', 'b', 'c'].filter((n) => n !== home)).toContain(await call(again.client, 'instance'));
    await again.client.close();
  });
});

/** A 2025-era client that records the list changes and resource updates it hears, and the instance it lives on. */
async function legacyListener(url: string, subscribe: readonly string[]): Promise<{ client: V1Client; heard: string[]; home: string }> {
  const client = new V1Client({ name: 'cluster-listener', version: '1.0.0' });
  const heard: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('tools'));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.push(`updated ${n.params.uri}`));
  await client.connect(new V1Http(new URL(url)));
  for (const uri of subscribe) await client.subscribeResource({ uri });
  return { client, heard, home: await call(client, 'instance') };
}

async function heardAtLeast(heard: readonly string[], count: number): Promise<void> {
  await until(() => heard.length >= count, 1_000);
}

describe('three instances sharing the event bus, the SSE event store and the task store through Redis', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ size: 3, redis: true, env: { SECRET } });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('tells the sessions on every instance of a catalog change made on one, and a resource update only to its subscribers', async () => {
    const url = cluster.balancer.url;
    // New sessions are placed round robin: one per instance, the first and last subscribed to the readme.
    const listeners = [
      await legacyListener(url, ['fixture://readme']),
      await legacyListener(url, []),
      await legacyListener(url, ['fixture://readme']),
    ];
    expect(new Set(listeners.map((l) => l.home))).toEqual(new Set(['a', 'b', 'c']));
    const [first, second, third] = listeners;

    await call(first.client, 'flip'); // a change on the first instance only
    for (const l of listeners) await heardAtLeast(l.heard, 1);
    await call(second.client, 'touch', { uri: 'fixture://readme' });
    // The update reaches the subscribers through Redis, while a change is told to the changing instance's own
    // sessions at once: the third instance's change waits until the update has arrived, so that the order heard
    // is the order things happened in.
    for (const l of [first, third]) await heardAtLeast(l.heard, 2);
    await call(third.client, 'flip');
    for (const l of listeners) await heardAtLeast(l.heard, l === second ? 2 : 3);

    // One bus, one order: the unsubscribed session heard the later list change, so it would have heard the update.
    expect(first.heard).toEqual(['tools', 'updated fixture://readme', 'tools']);
    expect(second.heard).toEqual(['tools', 'tools']);
    expect(third.heard).toEqual(['tools', 'updated fixture://readme', 'tools']);
    await Promise.all(listeners.map((l) => l.client.close()));
  });

  it('tells a 2026-07-28 listener of the changes made on the other instances', async () => {
    const url = cluster.balancer.url;
    const listener = new V2Client({ name: 'cluster-listen', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const heard: string[] = [];
    listener.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
    await listener.connect(new V2Http(new URL(url)));
    const subscription = await listener.listen({ toolsListChanged: true });
    // The listen stream is on one instance; a change from each of the three reaches it, so at least two crossed.
    const changers = [await legacyListener(url, []), await legacyListener(url, []), await legacyListener(url, [])];
    expect(new Set(changers.map((c) => c.home))).toEqual(new Set(['a', 'b', 'c']));
    for (const [i, changer] of changers.entries()) {
      await call(changer.client, 'flip');
      await heardAtLeast(heard, i + 1);
    }
    expect(heard).toEqual(['tools', 'tools', 'tools']);
    await subscription.close();
    await listener.close();
    await Promise.all(changers.map((c) => c.client.close()));
  });

  it('resumes a call whose SSE stream was dropped, through Last-Event-ID, with the events it missed', async () => {
    const port = cluster.balancer.port;
    const sessionId = await openSession(port);
    const headers = { ...LEGACY_HEADERS, 'mcp-session-id': sessionId };
    const callSlow = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow', arguments: { steps: 5 }, _meta: { progressToken: 'p' } },
    };
    const stream = await open(port, 'POST', headers, JSON.stringify(callSlow));
    await until(() => eventsOf(stream.text()).some((e) => e.data.method === 'notifications/progress'), 1_000);
    const seen = eventsOf(stream.text());
    const lastSeen = seen.at(-1)!;
    expect(lastSeen.data).toMatchObject({ method: 'notifications/progress', params: { progress: 1 } });
    stream.close(); // the connection drops in the middle of the call

    const resumed = await open(port, 'GET', {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': sessionId,
      'last-event-id': lastSeen.id!,
    });
    await until(() => eventsOf(resumed.text()).some((e) => e.data.id === 7), 1_000);
    resumed.close();
    expect(resumed.response.statusCode).toBe(200);
    const events = eventsOf(resumed.text());
    expect(events.map((e) => e.id)).not.toContain(lastSeen.id);
    const progress = events
      .filter((e) => e.data.method === 'notifications/progress')
      .map((e) => (e.data.params as { progress: number }).progress);
    expect(progress).toEqual([2, 3, 4, 5]);
    const home = sessionId.split('.')[0];
    expect(events.at(-1)!.data).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: `${home}: done in 5` }] } });
  });

  it('polls and cancels through other instances a task started through one; the cancellation reaches the running tool', async () => {
    const port = cluster.balancer.port;
    // 2026-07-28 requests are spread round robin: each of the next three lands on another instance.
    // The Mcp-Name header is the tool's name, or the task's id for the task methods (modernRequest sets it).
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const modern = async (method: string, params: Record<string, unknown>) => {
      const reply = await modernRequest(`http://127.0.0.1:${port}/mcp`, method, params, { capabilities: tasks });
      const json = reply.body.trimStart().startsWith('{')
        ? (JSON.parse(reply.body) as Record<string, unknown>)
        : eventsOf(reply.body).at(-1)!.data;
      if (json.error) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
      return json.result as Record<string, unknown>;
    };
    const task = await modern('tools/call', { name: 'vigil', arguments: { name: 'v1' } });
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(task.taskId);
    await until(() => cluster.instances.some((i) => i.output().includes('vigil v1 started on')), 1_000);
    const runner = cluster.instances.find((i) => i.output().includes('vigil v1 started on'))!;

    expect(await modern('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    await modern('tasks/cancel', { taskId });
    await until(() => runner.output().includes(`vigil v1 cancelled on ${runner.name}`), 1_000);
    expect(runner.output()).toContain(`vigil v1 cancelled on ${runner.name}`);
    expect(await modern('tasks/get', { taskId })).toMatchObject({ taskId, status: 'cancelled' });
    expect(cluster.instances.filter((i) => i.output().includes('vigil v1 started'))).toEqual([runner]);
  });

  it('with Redis stopped, refuses a new 2025-era session on every instance at once (503, Retry-After, no internal text), and still serves 2026-07-28 calls', async () => {
    await cluster.redis!.stop();
    await until(() => false, 50); // the instances notice the lost connection at once; a moment for the close to arrive
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const started = Date.now();
    const refused = await fetch(cluster.balancer.url, { method: 'POST', headers: LEGACY_HEADERS, body: JSON.stringify(initialize) });
    const body = await refused.text();
    process.stderr.write(
      `[figure] Redis stopped, three instances behind nginx: initialize answered ${refused.status} in ${Date.now() - started} ms\n`,
    );
    expect([refused.status, refused.headers.get('retry-after'), body]).toEqual([
      503,
      '1',
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Service Unavailable: The server is temporarily unable to use its event store (it is unavailable); try again shortly."},"id":null}',
    ]);
    // nginx asked each instance in turn (proxy_next_upstream http_503) before giving up: every one logged the outage.
    await until(
      () => cluster.instances.every((i) => i.output().includes('The event store could not open a new session (its connection is down)')),
      200,
    );
    expect(
      cluster.instances.filter((i) => i.output().includes('The event store could not open a new session (its connection is down)')).length,
    ).toBe(3);
    // Right after every instance answered 503: with max_fails=0 nginx marks none down, so stateless calls go on
    // flowing to all three (issue 37: with max_fails=1 they got 502 "no live upstreams" for fail_timeout).
    const client = await modernClient(cluster.balancer.url);
    const sums: string[] = [];
    for (let i = 0; i < 12; i++) sums.push(await call(client, 'add', { a: i, b: 3 }));
    expect(sums).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 3)));
    await client.close();
  });

  it('refuses to start an instance whose Redis does not answer, saying so', async () => {
    const nobody = await freePort();
    await expect(startInstance('x', { REDIS_URL: `redis://127.0.0.1:${nobody}` })).rejects.toThrow(/instance x exited with 1:[\s\S]*Redis/);
  });
});
