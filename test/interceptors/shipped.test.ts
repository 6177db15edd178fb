import {
  argumentsKey,
  auditLog,
  Int32,
  McpServer,
  MemoryRateLimitStore,
  Param,
  rateLimit,
  resultCache,
  SetOf,
  Tool,
  ToolError,
  UsageError,
  type AuditEntry,
  type AuthInfo,
  type LogDetails,
} from '../../src';

/**
 * The interceptors the library ships (issue 41), each on a real server, through `callTool` as a host's call arrives
 * after reading: a per-caller rate limit, a result cache keyed by item, caller and arguments, an audit log.
 */
class Catalogue {
  calls = 0;

  @Tool()
  price(@Param({ type: Int32 }) sku: number): number {
    this.calls++;
    return sku * 10;
  }

  @Tool()
  tagged(@Param({ type: SetOf(String) }) tags: Set<string>): string {
    this.calls++;
    return [...tags].join(',');
  }

  @Tool()
  refuse(): string {
    throw new ToolError('Not today.');
  }

  @Tool()
  crash(): string {
    throw new Error('bug');
  }
}

function setUp() {
  const catalogue = new Catalogue();
  const errors: { message: string; details?: LogDetails }[] = [];
  const server = new McpServer(
    { name: 'shop', version: '1' },
    { logger: { error: (message, details) => void errors.push({ message, details }), warn() {}, info() {}, debug() {} } },
  ).add(catalogue);
  return { catalogue, server, errors };
}

const caller = (subject: string): { context: { auth: AuthInfo } } => ({
  context: { auth: { subject, clientId: 'app', scopes: [], expiresAt: 2_000_000_000, claims: {} } },
});
const text = (result: { readonly content: readonly unknown[] }) => (result.content[0] as { text: string }).text;

afterEach(() => jest.restoreAllMocks());

describe('rateLimit', () => {
  it('refuses a caller’s call over the limit, saying when to try again; other callers keep theirs', async () => {
    const { server, catalogue } = setUp();
    server.use(rateLimit({ limit: 2, windowMs: 60_000 }));
    const ada = [];
    for (let i = 0; i < 3; i++) ada.push(await server.callTool('price', { sku: 1 }, caller('ada')));
    expect(ada.map(text)).toEqual(['10', '10', 'Too many calls: at most 2 per minute. Try again in 60 s.']);
    expect(ada[2].isError).toBe(true);
    expect(text(await server.callTool('price', { sku: 1 }, caller('bob')))).toBe('10');
    expect(catalogue.calls).toBe(3);
  });

  it('counts again in the next window', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { server } = setUp();
    server.use(rateLimit({ limit: 1, windowMs: 1_000, store: new MemoryRateLimitStore(() => now) }));
    expect(text(await server.callTool('price', { sku: 1 }))).toBe('10');
    now += 400;
    expect(text(await server.callTool('price', { sku: 1 }))).toBe('Too many calls: at most 1 per second. Try again in 1 s.');
    now += 600;
    expect(text(await server.callTool('price', { sku: 1 }))).toBe('10');
  });

  it('leaves a call unlimited when its key is undefined, and counts under the key given', async () => {
    const { server } = setUp();
    server.use(rateLimit({ limit: 1, windowMs: 60_000, key: (call) => (call.name === 'price' ? 'all' : undefined) }));
    await server.callTool('price', { sku: 1 }, caller('ada'));
    expect(text(await server.callTool('price', { sku: 1 }, caller('bob')))).toMatch(/^Too many calls/);
    for (let i = 0; i < 3; i++) expect(text(await server.callTool('tagged', { tags: ['a'] }))).toBe('a');
  });

  it('drops ended windows as the store is used, so callers that stopped do not stay in memory', () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 100; i++) store.hit(`caller ${i}`, 1_000);
    expect(store.size).toBe(100);
    now = 1_000;
    store.hit('late', 1_000);
    expect(store.size).toBe(1);
  });

  it.each([
    [{ limit: 0, windowMs: 1000 }, 'rateLimit({ limit }) takes a positive whole number; got 0.'],
    [{ limit: 1.5, windowMs: 1000 }, 'rateLimit({ limit }) takes a positive whole number; got 1.5.'],
    [{ limit: 1, windowMs: -1 }, 'rateLimit({ windowMs }) takes a positive whole number; got -1.'],
    [{ limit: '5', windowMs: 1000 }, 'rateLimit({ limit }) takes a positive whole number; got 5.'],
    [undefined, 'rateLimit({ limit }) takes a positive whole number; got undefined.'],
  ])('refuses the options %j at once', (options, message) => {
    const make = () => rateLimit(options as never);
    expect(make).toThrow(UsageError);
    expect(make).toThrow(message);
  });
});

describe('resultCache', () => {
  it('answers the same call of the same caller from memory, and not another caller’s or other arguments', async () => {
    const { server, catalogue } = setUp();
    server.use(resultCache({ ttlMs: 60_000 }));
    expect(text(await server.callTool('price', { sku: 2 }, caller('ada')))).toBe('20');
    expect(text(await server.callTool('price', { sku: 2 }, caller('ada')))).toBe('20');
    expect(catalogue.calls).toBe(1);
    await server.callTool('price', { sku: 2 }, caller('bob'));
    await server.callTool('price', { sku: 3 }, caller('ada'));
    expect(catalogue.calls).toBe(3);
  });

  it('keeps sets apart by their members (JSON alone writes every set as {})', async () => {
    const { server, catalogue } = setUp();
    server.use(resultCache({ ttlMs: 60_000 }));
    expect(text(await server.callTool('tagged', { tags: ['a'] }))).toBe('a');
    expect(text(await server.callTool('tagged', { tags: ['b'] }))).toBe('b');
    expect(catalogue.calls).toBe(2);
    expect(argumentsKey({ n: 1n, s: new Set(['x']), m: new Map([['k', 1]]) })).toBe('{"n":"1n","s":{"$set":["x"]},"m":{"$map":[["k",1]]}}');
  });

  it('runs the method again once the value is older than ttlMs', async () => {
    let now = 5_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { server, catalogue } = setUp();
    server.use(resultCache({ ttlMs: 1_000 }));
    await server.callTool('price', { sku: 1 });
    now += 999;
    await server.callTool('price', { sku: 1 });
    expect(catalogue.calls).toBe(1);
    now += 1;
    await server.callTool('price', { sku: 1 });
    expect(catalogue.calls).toBe(2);
  });

  it('keeps maxEntries values, the least recently used going first', async () => {
    const { server, catalogue } = setUp();
    server.use(resultCache({ ttlMs: 60_000, maxEntries: 2 }));
    await server.callTool('price', { sku: 1 });
    await server.callTool('price', { sku: 2 });
    await server.callTool('price', { sku: 1 }); // a hit: sku 2 is now the least recently used
    await server.callTool('price', { sku: 3 }); // evicts sku 2
    expect(catalogue.calls).toBe(3);
    await server.callTool('price', { sku: 1 });
    expect(catalogue.calls).toBe(3);
    await server.callTool('price', { sku: 2 });
    expect(catalogue.calls).toBe(4);
  });

  it('does not keep what throws', async () => {
    const { server } = setUp();
    const trail: string[] = [];
    server.use(resultCache({ ttlMs: 60_000 })).use(async (call, next) => {
      trail.push(call.name);
      return next();
    });
    await server.callTool('refuse', {});
    await server.callTool('refuse', {});
    expect(trail).toEqual(['refuse', 'refuse']);
  });

  it.each([
    [{ ttlMs: 0 }, 'resultCache({ ttlMs }) takes a positive whole number of milliseconds; got 0.'],
    [{ ttlMs: 10, maxEntries: 0 }, 'resultCache({ maxEntries }) takes a positive whole number; got 0.'],
  ])('refuses the options %j at once', (options, message) => {
    expect(() => resultCache(options)).toThrow(message);
  });
});

describe('auditLog', () => {
  it('writes one entry per call however it ends, without the arguments unless asked', async () => {
    const { server } = setUp();
    const entries: AuditEntry[] = [];
    server.use(auditLog((entry) => void entries.push(entry)));
    await server.callTool('price', { sku: 1 }, caller('ada'));
    await server.callTool('refuse', {}, { context: { requestId: 7, clientInfo: { name: 'host', version: '1' } } });
    await server.callTool('crash', {});
    const stable = entries.map(({ at, durationMs, ...rest }) => {
      expect(new Date(at).toISOString()).toBe(at);
      expect(durationMs).toBeGreaterThanOrEqual(0);
      return rest;
    });
    expect(stable).toEqual([
      { kind: 'tool', name: 'price', caller: 'ada', outcome: 'ok' },
      { kind: 'tool', name: 'refuse', client: 'host', requestId: 7, outcome: 'refused', reason: 'Not today.' },
      { kind: 'tool', name: 'crash', outcome: 'failed' },
    ]);
  });

  it('writes the read arguments with { args: true }', async () => {
    const { server } = setUp();
    const entries: AuditEntry[] = [];
    server.use(auditLog((entry) => void entries.push(entry), { args: true }));
    await server.callTool('price', { sku: 4 });
    expect(entries.map((e) => e.args)).toEqual([{ sku: 4 }]);
  });

  it('fails the call when the entry cannot be written: masked for the client, logged for the developer', async () => {
    const { server, errors } = setUp();
    server.use(
      auditLog(() => {
        throw new Error('disk full');
      }),
    );
    expect(await server.callTool('price', { sku: 1 })).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
    expect(errors.map((e) => e.message)).toEqual(["Tool 'price' failed: Error: disk full"]);
  });

  it('refuses what is not a function', () => {
    expect(() => auditLog('stderr' as never)).toThrow(new TypeError('auditLog() takes a function that writes each entry.'));
  });
});
