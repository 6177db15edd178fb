import { Exclude, Expose, Transform, Type, plainToInstance } from 'class-transformer';
import {
  IsPositive,
  Max,
  Min,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  IsOptional,
  IsString,
} from 'class-validator';
import { DictionaryOf, Field, Int32, McpServer, Param, Range, Tool, Json } from '../../src';
import { textOf } from '../support/probe';

class Line {
  @Field() sku!: string;
  @Field(Int32) @Range(1, 1000) qty!: number;
  @Field() price!: number;
}

class Customer {
  @Expose({ name: 'full_name' }) @Field() fullName!: string;
  @Type(() => Date) @Field() since!: Date;
  @IsOptional() @IsString() note?: string;
}

class Order {
  @Type(() => Line) @Field() lines!: Line[];
  @Type(() => Customer) @Field() customer!: Customer;
  @Field() rush: boolean = false;
}

@ValidatorConstraint({ name: 'evenSku' })
class EvenSku implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length % 2 === 0;
  }
  defaultMessage(): string {
    return 'sku must have an even length';
  }
}

class CheckedLine {
  @Validate(EvenSku) sku!: string;
  @IsPositive() @Min(1) @Max(1000) qty!: number;
}

class CheckedOrder {
  @Type(() => CheckedLine) @Field() lines!: CheckedLine[];
}

class Account {
  @Transform(({ value }) => (value as string).trim().toLowerCase()) @Field() email!: string;
  @Exclude() secret?: string;
}

let received: unknown[] = [];

class Tools {
  @Tool() place(order: Order): void {
    received = [order];
  }
  @Tool() check(order: CheckedOrder): void {
    received = [order];
  }
  @Tool() account(account: Account): void {
    received = [account];
  }
}

const server = new McpServer({ name: 't', version: '1' }).add(new Tools());

const order = {
  lines: [
    { sku: 'a', qty: 1, price: 2.5 },
    { sku: 'b', qty: 3, price: 1 },
  ],
  customer: { full_name: 'Ada', since: '2020-01-02T03:04:05Z' },
};

describe('records become instances with class-transformer semantics', () => {
  it('builds real instances, nested, with renames and initialisers', async () => {
    expect((await server.callTool('place', { order })).isError).toBeUndefined();
    const [o] = received as [Order];
    expect(o).toBeInstanceOf(Order);
    expect(o.lines[1]).toBeInstanceOf(Line);
    expect(o.customer).toBeInstanceOf(Customer);
    expect(o.customer.fullName).toBe('Ada');
    expect(o.customer.since).toEqual(new Date('2020-01-02T03:04:05Z'));
    expect(o.rush).toBe(false);
  });

  it('converts a Date by its design type even without @Type (class-transformer would leave the string)', async () => {
    class Stamp {
      @Field() at!: Date;
    }
    class StampTool {
      @Tool() stamp(s: Stamp): void {
        received = [s];
      }
    }
    const s = new McpServer({ name: 't', version: '1' }).add(new StampTool());
    await s.callTool('stamp', { s: { at: '2020-01-02T03:04:05Z' } });
    expect((received[0] as Stamp).at).toEqual(new Date('2020-01-02T03:04:05Z'));
  });

  it('builds what plainToInstance builds for valid input', async () => {
    await server.callTool('place', { order });
    expect(received[0]).toEqual(plainToInstance(Order, order));
    await server.callTool('place', { order: { ...order, rush: true } });
    expect(received[0]).toEqual(plainToInstance(Order, { ...order, rush: true }));
  });

  it('names the path of an invalid nested value by wire names', async () => {
    const bad = { ...order, customer: { full_name: 'Ada', since: 'yesterday' } };
    expect(textOf(await server.callTool('place', { order: bad }))).toBe(
      'Argument \'order.customer.since\' is not valid. Expected an RFC 3339 date-time, such as "2026-12-02T12:00:00Z".',
    );
    const lines = [...order.lines, { sku: 'c', qty: 0, price: 1 }];
    expect(textOf(await server.callTool('place', { order: { ...order, lines } }))).toBe(
      "Argument 'order.lines[2].qty' is not valid. Expected a whole number from 1 to 1000, such as 1.",
    );
  });

  it('refuses the JavaScript name of a renamed property and unknown properties', async () => {
    const bad = { ...order, customer: { fullName: 'Ada', since: '2020-01-02T03:04:05Z' } };
    expect(textOf(await server.callTool('place', { order: bad }))).toBe(
      "Argument 'order.customer.full_name' is not valid. It is required: a string, such as \"text\".\nArgument 'order.customer.fullName' is not valid. There is no such property.",
    );
    const extra = { ...order, customer: { ...order.customer, vip: true } };
    expect(textOf(await server.callTool('place', { order: extra }))).toBe(
      "Argument 'order.customer.vip' is not valid. There is no such property.",
    );
  });

  it('runs class-validator custom constraints and maps their path', async () => {
    const ok = { lines: [{ sku: 'ab', qty: 2 }] };
    expect((await server.callTool('check', { order: ok })).isError).toBeUndefined();
    expect(received[0]).toBeInstanceOf(CheckedOrder);
    const bad = {
      lines: [
        { sku: 'ab', qty: 2 },
        { sku: 'ab', qty: 2 },
        { sku: 'abc', qty: 2 },
      ],
    };
    expect(textOf(await server.callTool('check', { order: bad }))).toBe(
      "Argument 'order.lines[2].sku' is not valid. sku must have an even length",
    );
  });

  it('enforces class-validator rules the schema states before class-validator runs', async () => {
    const bad = { lines: [{ sku: 'ab', qty: 2000 }] };
    expect(textOf(await server.callTool('check', { order: bad }))).toBe(
      "Argument 'order.lines[0].qty' is not valid. Expected a number from 1 to 1000, such as 1.",
    );
  });

  it('applies @Transform and keeps @Exclude properties out', async () => {
    expect((await server.callTool('account', { account: { email: '  Ada@Example.COM ' } })).isError).toBeUndefined();
    expect((received[0] as Account).email).toBe('ada@example.com');
    expect(textOf(await server.callTool('account', { account: { email: 'a', secret: 'x' } }))).toBe(
      "Argument 'account.secret' is not valid. There is no such property.",
    );
  });
});

describe('hostile keys never reach a prototype', () => {
  const dict = new McpServer({ name: 't', version: '1' }).tool('d', { params: { v: DictionaryOf(Json) } }, ({ v }) => {
    received = [v];
  });

  it.each(['__proto__', 'constructor', 'prototype'])('a dictionary key %s is an own key of a null-prototype object', async (key) => {
    const args = JSON.parse(`{"v":{"${key}":{"polluted":true}}}`);
    expect((await dict.callTool('d', args)).isError).toBeUndefined();
    const v = received[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBeNull();
    expect(Object.keys(v)).toEqual([key]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'prototype'])('a record key %s is refused as unknown', async (key) => {
    const args = JSON.parse(
      `{"order":{"lines":[],"customer":{"full_name":"A","since":"2020-01-02T03:04:05Z","${key}":{"polluted":true}}}}`,
    );
    expect(textOf(await server.callTool('place', args))).toBe(`Argument 'order.customer.${key}' is not valid. There is no such property.`);
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect((Customer.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an argument named __proto__ is refused as unknown', async () => {
    const args = JSON.parse(
      '{"__proto__":{"polluted":true},"order":{"lines":[],"customer":{"full_name":"A","since":"2020-01-02T03:04:05Z"}}}',
    );
    expect(textOf(await server.callTool('place', args))).toBe("Argument '__proto__' is not valid. There is no such argument.");
  });
});

class Declared {
  @Tool() take(
    @Param({ type: Number }) prices: Map<string, number>,
    @Param({ type: String }) tags: Set<string>,
    data: Buffer,
    big: bigint,
  ): void {
    received = [prices, tags, data, big];
  }
}

describe('conversions chosen by the declared type', () => {
  it('gives a Map, a Set, a Buffer and a bigint when the method declares them', async () => {
    const s = new McpServer({ name: 't', version: '1' }).add(new Declared());
    const result = await s.callTool('take', { prices: { a: 1, __proto__x: 2 }, tags: ['x', 'y', 'x'], data: 'aGk=', big: 7 });
    expect(result.isError).toBeUndefined();
    const [prices, tags, data, big] = received as [Map<string, number>, Set<string>, Buffer, bigint];
    expect(prices).toEqual(
      new Map([
        ['a', 1],
        ['__proto__x', 2],
      ]),
    );
    expect(tags).toEqual(new Set(['x', 'y']));
    expect(Buffer.isBuffer(data)).toBe(true);
    expect(data.toString()).toBe('hi');
    expect(big).toBe(7n);
  });
});
