import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateOnly, Field, Int32, Length, McpServer, Nullable, Param, Range, Tool, type ProfileName } from '../../../src';
import { Everything, Level } from '../../profiles/fixture';

export class Seat {
  @Field() row!: string;
  @Field({ type: Int32, optional: true }) @Range(1, 40) number?: number;
}

/** What `Booking.book` received, as its method saw it. */
export interface Booked {
  readonly customer: string;
  readonly seats: number;
  readonly level: Level;
  readonly day: string | undefined;
  readonly coupon: string | null;
  readonly when: Date;
  readonly wanted: Seat[];
}

/**
 * A tool that keeps what it was called with: a required string, an integer with bounds, an enum with a default, an
 * optional date, a nullable string (which stays `null` under every profile), a `Date`, and records with an
 * optional property.
 */
export class Booking {
  readonly received: Booked[] = [];

  @Tool({ description: 'Books seats.' })
  book(
    @Param({ description: 'Who books.' }) @Length(2, 5) customer: string,
    @Param({ type: Int32 }) @Range(1, 10) seats: number,
    @Param({ type: Level }) level: Level = Level.Low,
    @Param({ type: DateOnly, optional: true }) day: string | undefined,
    @Param({ type: Nullable(String) }) coupon: string | null,
    when: Date,
    @Param({ type: [Seat] }) wanted: Seat[],
  ): string {
    this.received.push({ customer, seats, level, day, coupon, when, wanted });
    return `booked ${seats} for ${customer}`;
  }
}

/** Arguments for `book` as a strict-mode model sends them: every property, `null` for each optional one. */
export const STRICT_BOOK_ARGS = {
  customer: 'Ann',
  seats: 2,
  level: null,
  day: null,
  coupon: null,
  when: '2026-12-02T10:30:00Z',
  wanted: [
    { row: 'A', number: null },
    { row: 'B', number: 7 },
  ],
};

/** What `book` receives for STRICT_BOOK_ARGS: each `null` of an optional parameter read as absent. */
export function expectStrictBooking(booked: Booked | undefined): void {
  expect(booked).toBeDefined();
  const { when, wanted, ...rest } = booked!;
  expect(rest).toStrictEqual({ customer: 'Ann', seats: 2, level: Level.Low, day: undefined, coupon: null });
  expect(when).toBeInstanceOf(Date);
  expect(when.toISOString()).toBe('2026-12-02T10:30:00.000Z');
  expect(wanted.map((seat) => [seat instanceof Seat, seat.row, seat.number])).toStrictEqual([
    [true, 'A', undefined],
    [true, 'B', 7],
  ]);
}

/**
 * Our server, serving `Everything` and `Booking` under `listing` on 127.0.0.1, through `createHttpHandler` mounted in
 * a Node HTTP server of the test's own, which keeps the `arguments` of every `tools/call` as the client sent them
 * (JSON text), before our server reads them.
 */
export class OurServer {
  readonly booking = new Booking();
  readonly server = new McpServer({ name: 'shop', version: '1.0.0' }, { logger: false }).add(new Everything()).add(this.booking);
  /** `name arguments-as-JSON` for each `tools/call` request that reached the endpoint. */
  readonly calls: string[] = [];
  private http: Server | undefined;

  constructor(readonly listing: ProfileName) {}

  /** Starts listening; the endpoint's URL (`.../mcp`). */
  async start(): Promise<string> {
    const handler = this.server.createHttpHandler({ listing: this.listing });
    this.http = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body: unknown = text === '' ? undefined : JSON.parse(text);
        for (const message of Array.isArray(body) ? body : [body]) {
          const rpc = message as { method?: string; params?: { name?: string; arguments?: unknown } } | undefined;
          if (rpc?.method === 'tools/call') this.calls.push(`${rpc.params?.name} ${JSON.stringify(rpc.params?.arguments)}`);
        }
        void handler.handle(request, response, text === '' ? undefined : { body });
      });
    });
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  async close(): Promise<void> {
    await this.server.close();
    const http = this.http;
    if (!http) return;
    http.closeAllConnections();
    await new Promise<void>((resolve, reject) => http.close((error) => (error ? reject(error) : resolve())));
  }

  /** The listing's input schema of `tool` under this server's profile, as our own `listTools` writes it. */
  schemaOf(tool: 'order' | 'book'): Record<string, unknown> {
    return this.server.listTools({ listing: this.listing }).find((t) => t.name === tool)!.inputSchema as Record<string, unknown>;
  }
}
