import 'reflect-metadata';
import { Json, McpServer, Param, Tool } from '../../../src';
import { Everything } from '../../profiles/fixture';

export type Listing = 'exact' | 'gemini';

/** The arguments of `Everything.order` the fake model calls it with: what Gemini would send, JSON only. */
export const ORDER_ARGS = {
  customer: 'Ann',
  count: 3,
  coupon: null,
  level: 'high',
  id: '123e4567-e89b-12d3-a456-426614174000',
  day: '2026-12-02',
  when: '2026-12-02T10:30:00Z',
  where: 'https://example.com/a',
  data: 'AQID',
  tags: ['a', 'b'],
  prices: { tea: 2.5 },
  lines: [{ sku: 'T1', qty: 2, note: null }],
  sizes: [1, 2],
  wait: '00:00:05',
};

/** ORDER_ARGS without a `null`: a coupon, and a note on the line. */
export const NO_NULL_ARGS = { ...ORDER_ARGS, coupon: 'SAVE', lines: [{ sku: 'T1', qty: 2, note: 'gift' }] };

/** The text `Everything.order` answers to ORDER_ARGS with `coupon`. */
export const orderText = (coupon: string | null) =>
  `Ann3${coupon}high123e4567-e89b-12d3-a456-4266141740002026-12-02${new Date('2026-12-02T10:30:00Z')}https://example.com/a32tea11,25000`;

/** The text `Everything.order` answers to ORDER_ARGS. */
export const ORDER_TEXT = orderText(null);

/** The parameters `Everything.order` was called with, one entry per call. */
export type OrderCall = Parameters<Everything['order']>;

/** Our server with the fixture's `Everything`, served over Streamable HTTP on 127.0.0.1 with `listing`. */
export class OrderServer {
  readonly calls: OrderCall[] = [];
  private constructor(
    private readonly server: McpServer,
    readonly url: string,
  ) {}

  static async start(listing: Listing): Promise<OrderServer> {
    const everything = new Everything();
    const server = new McpServer({ name: 'orders', version: '1.0.0' }, { logger: false }).add(everything);
    const { port } = await server.serveHttp({ port: 0, host: '127.0.0.1', listing });
    const started = new OrderServer(server, `http://127.0.0.1:${port}/mcp`);
    // The invocation looks the method up on the instance at each call: this records its arguments, then runs it.
    const order = everything.order.bind(everything);
    everything.order = (...args: OrderCall) => {
      started.calls.push(args);
      return order(...args);
    };
    return started;
  }

  /** Our server's own listing of `order` under `listing`, as the exact string it sends. */
  listed(listing: Listing): string {
    return JSON.stringify(this.server.listTools({ listing }).find((t) => t.name === 'order')!.inputSchema);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/**
 * The one call's parameters, in a form `toEqual` compares exactly: the typed values (`Date`, `URL`, `Uint8Array`,
 * `Set`) spelled out, so a string where a `Date` belongs fails.
 */
export function spelled(calls: readonly OrderCall[]): unknown[] {
  return calls.map((call) =>
    call.map((value) => {
      if (value instanceof Date) return { Date: value.toISOString() };
      if (value instanceof URL) return { URL: value.href };
      if (value instanceof Uint8Array) return { Uint8Array: [...value] };
      if (value instanceof Set) return { Set: [...(value as Set<unknown>)] };
      return value;
    }),
  );
}

/** What `spelled` gives for ORDER_ARGS with `coupon` and the line's `note`. */
export const orderReceived = (coupon: string | null, note: string | null) => [
  [
    'Ann',
    3,
    coupon,
    'high',
    '123e4567-e89b-12d3-a456-426614174000',
    '2026-12-02',
    { Date: '2026-12-02T10:30:00.000Z' },
    { URL: 'https://example.com/a' },
    { Uint8Array: [1, 2, 3] },
    { Set: ['a', 'b'] },
    { tea: 2.5 },
    [{ sku: 'T1', qty: 2, note }],
    [1, 2],
    5000,
  ],
];

/** What `spelled` gives for ORDER_ARGS. */
export const ORDER_RECEIVED = orderReceived(null, null);

/** A tool of one free JSON parameter (`Json`): `{}` in the exact listing, an `anyOf` under `'gemini'`. */
export class Payloads {
  @Tool() keep(@Param({ type: Json }) payload: unknown): string {
    return JSON.stringify(payload);
  }
}

/** `Payloads` served over Streamable HTTP on 127.0.0.1 with `listing`. */
export async function servePayloads(listing: Listing): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = new McpServer({ name: 'payloads', version: '1.0.0' }, { logger: false }).add(new Payloads());
  const { port } = await server.serveHttp({ port: 0, host: '127.0.0.1', listing });
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => server.close() };
}

/** `Payloads.keep`'s listing under `listing`, as the exact string our server sends. */
export const payloadsListed = (listing: Listing) =>
  JSON.stringify(
    new McpServer({ name: 'payloads', version: '1.0.0' }, { logger: false }).add(new Payloads()).listTools({ listing })[0].inputSchema,
  );
