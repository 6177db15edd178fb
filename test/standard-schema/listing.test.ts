import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';
import { ArrayOf, Field, Int32, McpServer, Nullable, Param, Tool } from '../../src';
import { ARK_LINE, VALIBOT_LINE, ZOD_LINE, arkLine, valibotLine, zodLine } from './schemas';

/**
 * DESIGN.md section 2: a Standard Schema is accepted wherever a type hint is, and listed as the library's own JSON
 * Schema (`~standard.jsonSchema.input({ target: 'draft-2020-12' })`), in its key order, `$schema` dropped inside a
 * property and kept where the schema is the whole input.
 */

const inputOf = (server: McpServer, name: string) => JSON.stringify(server.listTools().find((t) => t.name === name)!.inputSchema);
const serverOf = (instance: object) => new McpServer({ name: 't', version: '1' }, { logger: false }).add(instance);

describe('a Standard Schema as a parameter hint', () => {
  it.each([
    ['zod 4', zodLine, ZOD_LINE],
    ['Valibot (toStandardJsonSchema)', valibotLine, VALIBOT_LINE],
    ['ArkType', arkLine, ARK_LINE],
  ])('%s: the library JSON Schema, as the parameter', (_, schema, listed) => {
    class Tools {
      @Tool() add(@Param({ type: schema }) line: unknown, @Param({ type: Int32 }) count: number): void {}
    }
    expect(inputOf(serverOf(new Tools()), 'add')).toBe(
      `{"type":"object","properties":{"line":${listed},"count":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["line","count"],"additionalProperties":false}`,
    );
  });

  it('keeps the library key order (Valibot writes $schema last: dropped all the same)', () => {
    class Tools {
      @Tool() t(@Param({ type: toStandardJsonSchema(v.pipe(v.string(), v.email())) }) to: string): void {}
    }
    expect(inputOf(serverOf(new Tools()), 't')).toBe(
      '{"type":"object","properties":{"to":{"type":"string","format":"email"}},"required":["to"],"additionalProperties":false}',
    );
  });

  it('writes the parameter description after the library keys, or in the place of its own', () => {
    class Tools {
      @Tool() t(
        @Param({ type: z.string().min(2), description: 'City name' }) city: string,
        @Param({ type: z.number().describe('by zod'), description: 'Ours' }) n: number,
        @Param({ type: z.number().describe('by zod') }) m: number,
      ): void {}
    }
    expect(inputOf(serverOf(new Tools()), 't')).toBe(
      '{"type":"object","properties":{"city":{"type":"string","minLength":2,"description":"City name"},"n":{"type":"number","description":"Ours"},"m":{"type":"number","description":"by zod"}},"required":["city","n","m"],"additionalProperties":false}',
    );
  });

  it('makes a parameter whose schema accepts undefined (optional, default) not required', () => {
    class Tools {
      @Tool() t(
        @Param({ type: z.string().optional() }) note: string | undefined,
        @Param({ type: z.number().default(3) }) days: number,
        @Param({ type: type('string | undefined') }) ark: string | undefined,
        @Param({ type: z.string() }) city: string,
      ): void {}
    }
    expect(inputOf(serverOf(new Tools()), 't')).toBe(
      '{"type":"object","properties":{"note":{"type":"string"},"days":{"default":3,"type":"number"},"ark":{"anyOf":[{"type":"string"},{}]},"city":{"type":"string"}},"required":["city"],"additionalProperties":false}',
    );
  });

  it('lists Nullable(schema) as an anyOf beside null, the library fragment kept whole', () => {
    class Tools {
      @Tool() t(@Param({ type: Nullable(arkLine) }) a: unknown, @Param({ type: z.string(), nullable: true }) b: string | null): void {}
    }
    expect(inputOf(serverOf(new Tools()), 't')).toBe(
      `{"type":"object","properties":{"a":{"anyOf":[${ARK_LINE},{"type":"null"}]},"b":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["a","b"],"additionalProperties":false}`,
    );
  });

  it('takes the whole type from the schema on an array parameter (no element hint)', () => {
    class Tools {
      @Tool() t(@Param({ type: z.array(z.string()).max(3) }) tags: string[]): void {}
    }
    expect(inputOf(serverOf(new Tools()), 't')).toBe(
      '{"type":"object","properties":{"tags":{"maxItems":3,"type":"array","items":{"type":"string"}}},"required":["tags"],"additionalProperties":false}',
    );
  });
});

describe('a Standard Schema inside other hints and records', () => {
  /** zod's own email pattern, as its JSON Schema writes it. */
  const EMAIL_PATTERN = (z.email().toJSONSchema() as { pattern: string }).pattern;

  class Order {
    @Field(z.email()) mail!: string;
    @Field({ type: ArrayOf(zodLine) }) lines!: unknown[];
    @Field({ type: valibotLine, optional: true }) extra?: unknown;
  }

  it('lists @Field(schema) and ArrayOf(schema) as the library wrote them', () => {
    class Tools {
      @Tool() place(order: Order): void {}
    }
    expect(inputOf(serverOf(new Tools()), 'place')).toBe(
      '{"type":"object","properties":{"order":{"type":"object","properties":{' +
        `"mail":{"type":"string","format":"email","pattern":${JSON.stringify(EMAIL_PATTERN)}},` +
        `"lines":{"type":"array","items":${ZOD_LINE}},"extra":${VALIBOT_LINE}},"required":["mail","lines"],"additionalProperties":false}},"required":["order"],"additionalProperties":false}`,
    );
  });
});

describe('server.tool(name, { input: schema }, handler)', () => {
  it.each([
    [
      'zod 4',
      z.object({ city: z.string(), days: z.number().int().default(1) }),
      '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"city":{"type":"string"},"days":{"default":1,"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"required":["city"]}',
    ],
    [
      'Valibot',
      toStandardJsonSchema(v.strictObject({ city: v.string() })),
      '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false,"$schema":"https://json-schema.org/draft/2020-12/schema"}',
    ],
    [
      'ArkType',
      type({ city: 'string' }),
      '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"city":{"type":"string"}},"required":["city"]}',
    ],
  ])('%s: lists the library JSON Schema as the inputSchema, as given', (_, schema, listed) => {
    const server = new McpServer({ name: 't', version: '1' }).tool('weather', { description: 'Weather', input: schema }, () => 'ok');
    expect(JSON.stringify(server.listTools()[0])).toBe(`{"name":"weather","description":"Weather","inputSchema":${listed}}`);
  });

  it('lists the output JSON Schema as the outputSchema of @Tool({ returns: schema })', () => {
    class Tools {
      @Tool({ returns: z.object({ temp: z.number(), unit: z.enum(['C', 'F']).default('C') }) }) async now(): Promise<unknown> {
        return { temp: 1, unit: 'C' };
      }
    }
    const listed = serverOf(new Tools()).listTools()[0];
    expect(JSON.stringify(listed.outputSchema)).toBe(
      '{"type":"object","properties":{"temp":{"type":"number"},"unit":{"default":"C","type":"string","enum":["C","F"]}},"required":["temp","unit"],"additionalProperties":false}',
    );
  });
});
