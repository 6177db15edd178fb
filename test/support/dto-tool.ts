import { McpServer, Param, Tool } from '../../src';
import { leftToClassValidator } from '../../src/invoke/reading/validator';
import { unwrap, type RecordNode } from '../../src/schema/model';
import { toolsOf } from '../../src/schema/members/tools';
import { textOf } from './probe';

/** A record class as a test declares it. */
export type Dto = abstract new (...args: never[]) => object;

/**
 * A server with one tool, `take(dto)`, whose one argument is a `Dto` record: what it lists, how it answers a call,
 * and whether reading alone checks every class-validator rule of the record (class-validator does not run).
 */
export function dtoTool(dto: Dto): { listed: () => string; call: (value: unknown) => Promise<string>; readAlone: () => boolean } {
  class Tools {
    @Tool() take(@Param({ name: 'dto', type: dto }) _value: object): string {
      return 'ok';
    }
  }
  const server = new McpServer({ name: 'edges', version: '1' }).add(new Tools());
  return {
    listed: () => JSON.stringify(server.listTools()[0].inputSchema),
    call: async (value: unknown) => textOf(await server.callTool('take', { dto: value })),
    readAlone: () => !leftToClassValidator(unwrap(toolsOf(Tools)[0].model.params[0].type) as RecordNode).any,
  };
}

/** The exact listing of `take(dto)`, given the exact listing of the record `dto`. */
export function dtoListing(record: string): string {
  return `{"type":"object","properties":{"dto":${record}},"required":["dto"],"additionalProperties":false}`;
}

/**
 * Checks a `Dto` through `take(dto)`: the tool lists exactly `record` for it, and each call with `dto: value` answers
 * exactly `text` (`'ok'`, or the refusal, class-validator's message where it alone refuses).
 */
export async function expectDto(dto: Dto, record: string, calls: ReadonlyArray<readonly [value: unknown, text: string]>): Promise<void> {
  const { listed, call } = dtoTool(dto);
  expect(listed()).toBe(dtoListing(record));
  for (const [value, text] of calls) expect(await call(value)).toBe(text);
}
