import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { ArrayOf, DictionaryOf, Field, McpServer, Param, SetOf, Tool, type CallToolResult } from '../../src';
import { arkLine, valibotLine, zodLine } from './schemas';

/**
 * DESIGN.md sections 2 and 6: a Standard Schema is read with the library's `~standard.validate`; the method receives
 * its output value (transforms and defaults applied); every issue is one line of the argument error, at its exact
 * path, all at once; a `validate` that answers a promise is waited for before the method runs.
 */

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const serverOf = (instance: object) => new McpServer({ name: 't', version: '1' }, { logger: false }).add(instance);

class Lines {
  @Tool() zod(@Param({ type: ArrayOf(zodLine) }) items: unknown[]): string {
    return JSON.stringify(items);
  }
  @Tool() valibot(@Param({ type: ArrayOf(valibotLine) }) items: unknown[]): string {
    return JSON.stringify(items);
  }
  @Tool() ark(@Param({ type: ArrayOf(arkLine) }) items: unknown[]): string {
    return JSON.stringify(items);
  }
}

describe('reading with ~standard.validate', () => {
  const server = serverOf(new Lines());

  it.each(['zod', 'valibot', 'ark'])('%s: passes a valid value on', async (tool) => {
    expect(text(await server.callTool(tool, { items: [{ sku: 'a', qty: 2 }] }))).toBe('[{"sku":"a","qty":2}]');
  });

  it.each([
    [
      'zod',
      "Argument 'items[1].qty' is not valid. Too small: expected number to be >0.\nArgument 'items[2].sku' is not valid. Invalid input: expected string, received undefined.",
    ],
    [
      'valibot',
      "Argument 'items[1].qty' is not valid. Invalid value: Expected >=1 but received 0.\nArgument 'items[2].sku' is not valid. Invalid key: Expected \"sku\" but received undefined.",
    ],
    [
      'ark',
      "Argument 'items[1].qty' is not valid. qty must be positive (was 0).\nArgument 'items[2].sku' is not valid. sku must be a string (was missing).",
    ],
  ])('%s: reports every issue at its exact path, one line each', async (tool, message) => {
    const result = await server.callTool(tool, { items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 0 }, { qty: 1 }] });
    expect(result).toEqual({ content: [{ type: 'text', text: message }], isError: true });
  });

  it('names invalid arguments of Standard Schemas and of other hints together, in parameter order', async () => {
    class T {
      @Tool() t(@Param({ type: z.string().min(2) }) a: string, b: number, @Param({ type: type('number > 0') }) c: number): void {}
    }
    expect(text(await serverOf(new T()).callTool('t', { a: 'x', b: 'y', c: 0, d: 1 }))).toBe(
      [
        "Argument 'a' is not valid. Too small: expected string to have >=2 characters.",
        "Argument 'b' is not valid. Expected a number, such as 0.",
        "Argument 'c' is not valid. must be positive (was 0).",
        "Argument 'd' is not valid. There is no such argument.",
      ].join('\n'),
    );
  });

  it('says what a missing required argument is', async () => {
    class T {
      @Tool() t(@Param({ type: zodLine }) line: unknown): void {}
    }
    expect(text(await serverOf(new T()).callTool('t', {}))).toBe("Argument 'line' is not valid. It is required: an object.");
  });

  it('gives the method the output value: transforms, defaults, and the default of a missing argument', async () => {
    class T {
      @Tool() t(
        @Param({ type: z.string().transform((s) => s.length) }) length: number,
        @Param({ type: z.object({ unit: z.enum(['C', 'F']).default('C'), city: z.string().trim() }) }) where: unknown,
        @Param({ type: z.number().default(3) }) days: number,
        @Param({ type: toStandardJsonSchema(v.optional(v.string(), 'none')) }) note: string,
        @Param({ type: type('string').pipe((s) => s.toUpperCase()) }) loud: string,
      ): string {
        return JSON.stringify({ length, where, days, note, loud });
      }
    }
    expect(text(await serverOf(new T()).callTool('t', { length: 'abcd', where: { city: ' Oslo ' }, loud: 'hi' }))).toBe(
      '{"length":4,"where":{"unit":"C","city":"Oslo"},"days":3,"note":"none","loud":"HI"}',
    );
  });

  it('reads a record property and a dictionary or set of Standard Schema values', async () => {
    class Order {
      @Field(z.string().toUpperCase()) code!: string;
      @Field({ type: DictionaryOf(z.number().int()) }) counts!: Record<string, number>;
      @Field({ type: SetOf(z.string().trim()) }) tags!: Set<string>;
    }
    class T {
      @Tool() t(order: Order): string {
        return JSON.stringify({ isOrder: order instanceof Order, code: order.code, counts: order.counts, tags: [...order.tags] });
      }
    }
    const server = serverOf(new T());
    expect(text(await server.callTool('t', { order: { code: 'ab', counts: { a: 1 }, tags: [' x ', 'y'] } }))).toBe(
      '{"isOrder":true,"code":"AB","counts":{"a":1},"tags":["x","y"]}',
    );
    expect(text(await server.callTool('t', { order: { code: 1, counts: { a: 1.5 }, tags: [2] } }))).toBe(
      [
        "Argument 'order.code' is not valid. Invalid input: expected string, received number.",
        "Argument 'order.counts.a' is not valid. Invalid input: expected int, received number.",
        "Argument 'order.tags[0]' is not valid. Invalid input: expected string, received number.",
      ].join('\n'),
    );
  });
});

describe('a validate that answers a promise (async refinements)', () => {
  const unique = z.string().refine(async (s) => !['taken', 'root'].includes(s), 'That name is taken');

  class Accounts {
    @Tool() create(@Param({ type: unique }) name: string, @Param({ type: ArrayOf(unique) }) aliases: string[]): string {
      return JSON.stringify({ name, aliases });
    }
    @Tool() trimmed(
      @Param({
        type: z
          .string()
          .refine(async () => true)
          .transform((s) => s.trim()),
      })
      s: string,
    ): string {
      return JSON.stringify(s);
    }
  }
  const server = serverOf(new Accounts());

  it('waits for it, and gives the method the output value', async () => {
    expect(text(await server.callTool('create', { name: 'ada', aliases: ['a', 'b'] }))).toBe('{"name":"ada","aliases":["a","b"]}');
    expect(text(await server.callTool('trimmed', { s: ' x ' }))).toBe('"x"');
  });

  it('reports every failing value at its path', async () => {
    expect(text(await server.callTool('create', { name: 'taken', aliases: ['a', 'root'] }))).toBe(
      "Argument 'name' is not valid. That name is taken.\nArgument 'aliases[1]' is not valid. That name is taken.",
    );
  });

  it('runs the whole input of server.tool through an async schema', async () => {
    const quick = new McpServer({ name: 't', version: '1' }).tool(
      'signup',
      { input: z.object({ name: unique, age: z.number().int().min(18) }) },
      ({ name, age }) => `${name} ${age}`,
    );
    expect(text(await quick.callTool('signup', { name: 'ada', age: 30 }))).toBe('ada 30');
    expect(text(await quick.callTool('signup', { name: 'taken', age: 30 }))).toBe("Argument 'name' is not valid. That name is taken.");
  });

  it('masks a validate that throws, as any failure of the tool', async () => {
    // A hand-written Standard Schema (zod's own sync attempt would leave a rejection of its own behind).
    const boom = {
      '~standard': {
        version: 1 as const,
        vendor: 'hand-written',
        validate: () => Promise.reject(new Error('database down')),
        jsonSchema: { input: () => ({ type: 'string' }), output: () => ({ type: 'string' }) },
      },
    };
    class T {
      @Tool() t(@Param({ type: boom }) s: string): void {}
    }
    expect(await serverOf(new T()).callTool('t', { s: 'x' })).toEqual({
      content: [{ type: 'text', text: 'The tool failed.' }],
      isError: true,
    });
  });
});

describe('server.tool(name, { input })', () => {
  const server = new McpServer({ name: 't', version: '1' })
    .tool('zod', { input: z.object({ city: z.string(), days: z.number().int().default(1) }) }, (args) => JSON.stringify(args))
    .tool('valibot', { input: toStandardJsonSchema(v.strictObject({ city: v.string() })) }, (args) => JSON.stringify(args))
    .tool('ark', { input: type({ city: 'string', 'days?': 'number' }) }, (args) => JSON.stringify(args));

  it('gives the handler the output value', async () => {
    expect(text(await server.callTool('zod', { city: 'Oslo' }))).toBe('{"city":"Oslo","days":1}');
    expect(text(await server.callTool('valibot', { city: 'Oslo' }))).toBe('{"city":"Oslo"}');
    expect(text(await server.callTool('ark', { city: 'Oslo', days: 2 }))).toBe('{"city":"Oslo","days":2}');
  });

  it('reads missing arguments as an empty object, and refuses what the schema refuses', async () => {
    expect(text(await server.callTool('zod', undefined as never))).toBe(
      "Argument 'city' is not valid. Invalid input: expected string, received undefined.",
    );
    expect(text(await server.callTool('valibot', { city: 'Oslo', extra: 1 }))).toBe(
      'Argument \'extra\' is not valid. Invalid key: Expected never but received "extra".',
    );
  });
});

describe('hostile input', () => {
  class T {
    @Tool() list(@Param({ type: z.array(z.number()) }) n: number[]): number {
      return n.length;
    }
    @Tool() obj(@Param({ type: z.object({ a: z.string() }) }) o: Record<string, unknown>): string {
      return JSON.stringify({
        keys: Object.keys(o),
        proto: Object.getPrototypeOf(o) === Object.prototype,
        polluted: ({} as { x?: unknown }).x,
      });
    }
  }
  const server = serverOf(new T());

  it('reads a huge array, and reports at most 100 of its issues', async () => {
    expect(text(await server.callTool('list', { n: Array.from({ length: 200_000 }, (_, i) => i) }))).toBe('200000');
    const lines = text(await server.callTool('list', { n: Array.from({ length: 200_000 }, () => 'x') })).split('\n');
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe("Argument 'n[0]' is not valid. Invalid input: expected number, received string.");
    expect(lines[100]).toBe("Argument 'n' is not valid. 199900 more problems are not listed.");
  });

  it('keeps __proto__ and constructor keys from the prototype', async () => {
    const args = JSON.parse('{"o":{"a":"x","__proto__":{"x":1},"constructor":{"prototype":{"x":1}}}}') as Record<string, unknown>;
    expect(text(await server.callTool('obj', args))).toBe('{"keys":["a"],"proto":true}');
  });
});

describe('a Standard Schema result (@Tool({ returns }))', () => {
  const Reading = z.object({ temp: z.number(), unit: z.enum(['C', 'F']) });
  class T {
    @Tool({ returns: Reading }) async now(): Promise<unknown> {
      return { temp: 21.5, unit: 'C' };
    }
    @Tool({ returns: Reading }) async wrong(): Promise<unknown> {
      return { temp: 'warm', unit: 'C' };
    }
    @Tool({ returns: z.array(z.number()) }) async list(): Promise<number[]> {
      return [1, 2];
    }
  }
  const server = serverOf(new T());

  it('sends an object result as structuredContent, checked against the output schema', async () => {
    expect(await server.callTool('now', {})).toEqual({
      content: [{ type: 'text', text: '{"temp":21.5,"unit":"C"}' }],
      structuredContent: { temp: 21.5, unit: 'C' },
    });
    expect(await server.callTool('wrong', {})).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
  });

  it('sends any other JSON result as text', async () => {
    expect(await server.callTool('list', {})).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
  });
});
