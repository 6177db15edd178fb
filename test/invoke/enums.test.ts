import { IsEnum } from 'class-validator';
import { Field, McpServer, Param, Tool } from '../../src';
import { textOf } from '../support/probe';

// Issue 11: a string enum is listed, read, defaulted and written by its values; numeric and mixed enums by
// member names (DESIGN.md sections 3, 5 and 6).
enum Status {
  Pending = 'pending',
  Shipped = 'shipped',
}
enum Level {
  Low,
  High,
}
enum Mixed {
  A = 1,
  B = 'b',
}

/** A DTO as a REST API declares it: class-validator's `@IsEnum` and class-transformer use the values. */
class Order {
  @IsEnum(Status) status!: Status;
  @Field(Level) level!: Level;
}

class Orders {
  @Tool() setStatus(@Param({ type: Status }) status: Status = Status.Pending): string {
    return status;
  }
  @Tool() setLevel(@Param({ type: Level }) level: Level, @Param({ type: Mixed }) mixed: Mixed): string {
    return `${typeof level}:${level} ${typeof mixed}:${mixed}`;
  }
  @Tool() echo(order: Order): string {
    return `${order.status} ${order.level}`;
  }
  @Tool({ returns: Status }) status(): Status {
    return Status.Shipped;
  }
  @Tool() async laterStatus(): Promise<Status> {
    return Status.Shipped;
  }
  @Tool() order(): Order {
    return Object.assign(new Order(), { status: Status.Shipped, level: Level.High });
  }
  @Tool({ returns: Order }) async laterOrder(): Promise<Order> {
    return Object.assign(new Order(), { status: Status.Shipped, level: Level.High });
  }
}

function server(): McpServer {
  return new McpServer({ name: 't', version: '1' }).add(new Orders());
}

function inputOf(s: McpServer, name: string): string {
  return JSON.stringify(s.listTools().find((t) => t.name === name)!.inputSchema);
}

describe('string enums by value, numeric and mixed enums by member name', () => {
  it('lists a string enum by its values and writes its default as a value', () => {
    expect(inputOf(server(), 'set_status')).toBe(
      '{"type":"object","properties":{"status":{"type":"string","enum":["pending","shipped"],"default":"pending"}},"additionalProperties":false}',
    );
  });

  it('lists numeric and mixed enums by member name', () => {
    expect(inputOf(server(), 'set_level')).toBe(
      '{"type":"object","properties":{"level":{"type":"string","enum":["Low","High"]},"mixed":{"type":"string","enum":["A","B"]}},' +
        '"required":["level","mixed"],"additionalProperties":false}',
    );
  });

  it('reads a string enum by value and refuses its member name', async () => {
    const s = server();
    expect(textOf(await s.callTool('set_status', { status: 'shipped' }))).toBe('shipped');
    expect(textOf(await s.callTool('set_status', { status: 'Shipped' }))).toBe(
      'Argument \'status\' is not valid. Expected one of: "pending", "shipped".',
    );
  });

  it('reads numeric and mixed enums by member name into the member value', async () => {
    expect(textOf(await server().callTool('set_level', { level: 'High', mixed: 'A' }))).toBe('number:1 number:1');
  });

  it('lists a reused REST DTO (@IsEnum) with the values class-validator checks', async () => {
    const s = server();
    expect(inputOf(s, 'echo')).toBe(
      '{"type":"object","properties":{"order":{"type":"object","properties":{"status":{"type":"string","enum":["pending","shipped"]},' +
        '"level":{"type":"string","enum":["Low","High"]}},"required":["status","level"],"additionalProperties":false}},' +
        '"required":["order"],"additionalProperties":false}',
    );
    expect(textOf(await s.callTool('echo', { order: { status: 'pending', level: 'Low' } }))).toBe('pending 0');
  });

  it('writes a string enum result by value, sync or async, with or without a declared type', async () => {
    const s = server();
    expect(textOf(await s.callTool('status', {}))).toBe('shipped');
    expect(textOf(await s.callTool('later_status', {}))).toBe('shipped');
  });

  it('writes the same record from a sync method and an async one', async () => {
    const s = server();
    const sync = await s.callTool('order', {});
    const later = await s.callTool('later_order', {});
    expect(sync.structuredContent).toEqual({ status: 'shipped', level: 'High' });
    expect(later).toEqual(sync);
  });
});
