import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { DefinitionError, McpServer, Param, Tool } from '../../src';
import { diagnosticLinesOf } from '../support/diagnostics';

/**
 * DESIGN.md section 2: a Standard Schema that cannot be listed is a definition diagnostic (OMCG0018, docs/diagnostics.md),
 * found when the tool is added, never a broken `tools/list`.
 */

/** A hand-written Standard Schema object: `validate` answers the value, `jsonSchema` as given (or none). */
function handWritten(jsonSchema?: unknown, version: unknown = 1): object {
  return {
    '~standard': { version, vendor: 'hand', validate: (value: unknown) => ({ value }), ...(jsonSchema !== undefined && { jsonSchema }) },
  };
}
const answering = (json: unknown) => ({ input: () => json, output: () => json });

function quickProblems(config: object): string[] {
  const server = new McpServer({ name: 't', version: '1' });
  let caught: unknown;
  try {
    server.tool('q', config as never, () => 'x');
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DefinitionError);
  expect(server.listTools()).toEqual([]);
  return (caught as DefinitionError).diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`);
}

describe('OMCG0018: a Standard Schema that cannot be listed', () => {
  it.each([
    [
      'z.custom()',
      z.custom<string>((x) => typeof x === 'string'),
      'the zod schema cannot be listed as JSON Schema draft-2020-12: Custom types cannot be represented in JSON Schema.',
    ],
    [
      'a transform-only zod schema',
      z.transform((x: unknown) => String(x)),
      'the zod schema cannot be listed as JSON Schema draft-2020-12: Transforms cannot be represented in JSON Schema.',
    ],
    ['z.date()', z.date(), 'the zod schema cannot be listed as JSON Schema draft-2020-12: Date cannot be represented in JSON Schema.'],
    [
      'a Valibot schema without toStandardJsonSchema',
      v.string(),
      'the valibot schema has no Standard JSON Schema interface (~standard.jsonSchema), so it cannot be listed.',
    ],
    [
      'a hand-written object with ~standard but no jsonSchema',
      handWritten(),
      'the hand schema has no Standard JSON Schema interface (~standard.jsonSchema), so it cannot be listed.',
    ],
    [
      'a converter answering another draft',
      handWritten(answering({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' })),
      'the hand schema was listed for "http://json-schema.org/draft-07/schema#", not JSON Schema draft-2020-12 (the library does not support that target).',
    ],
    [
      'a converter answering no object',
      handWritten(answering('string')),
      'the hand schema cannot be listed as JSON Schema draft-2020-12: the converter answered no JSON Schema object.',
    ],
    [
      'a converter answering an invalid schema',
      handWritten(answering({ type: 'text' })),
      'the hand schema lists a schema that is not valid JSON Schema draft-2020-12: schema/type must be equal to one of the allowed values, schema/type must be array, schema/type must match a schema in anyOf.',
    ],
    [
      'a recursive zod schema inside a parameter',
      (() => {
        const Node = z.object({
          name: z.string(),
          get kids() {
            return z.array(Node);
          },
        });
        return Node;
      })(),
      'the zod schema lists "$ref", which resolves against the whole inputSchema once the schema is placed inside it.',
    ],
    [
      'a ~standard of another version',
      handWritten(answering({}), 2),
      "the hint has a '~standard' property but is not a Standard Schema (version 1, with a validate function).",
    ],
  ])('%s', (_, schema, message) => {
    class Tools {
      @Tool() t(@Param({ type: schema as never }) x: unknown): void {}
    }
    expect(diagnosticLinesOf(new Tools())).toEqual([`OMCG0018 Tools.t, parameter 'x': ${message}`]);
  });

  it('reports every problem of the class at once, with the fix', () => {
    class Tools {
      @Tool() a(@Param({ type: z.date() }) when: Date, @Param({ type: v.number() }) n: number): void {}
    }
    let caught: DefinitionError | undefined;
    try {
      new McpServer({ name: 't', version: '1' }).add(new Tools());
    } catch (error) {
      caught = error as DefinitionError;
    }
    expect(caught?.diagnostics.map((d) => [d.code, d.where])).toEqual([
      ['OMCG0018', "Tools.a, parameter 'when'"],
      ['OMCG0018', "Tools.a, parameter 'n'"],
    ]);
    expect(caught?.diagnostics[1].fix).toBe(
      'use a library that implements Standard JSON Schema (zod 4.2 or later, ArkType 2.1.28 or later), or wrap the schema: for Valibot, toStandardJsonSchema(schema) from @valibot/to-json-schema.',
    );
  });

  it('refuses a result whose output the library cannot list', () => {
    class Tools {
      @Tool({ returns: z.object({ at: z.string().transform((s) => new Date(s)) }) }) async now(): Promise<unknown> {
        return {};
      }
    }
    expect(diagnosticLinesOf(new Tools())).toEqual([
      "OMCG0018 Tools.now, result: the zod schema's output cannot be listed as JSON Schema: Transforms cannot be represented in JSON Schema.",
    ]);
  });
});

describe('server.tool(name, { input })', () => {
  it('refuses a schema that is not of an object', () => {
    expect(quickProblems({ input: z.string() })).toEqual([
      `OMCG0018 tool 'q', input: the zod schema lists "string"; an MCP tool's input schema is "type": "object".`,
    ]);
  });

  it('refuses what is not a Standard Schema', () => {
    expect(quickProblems({ input: { type: 'object' } })).toEqual(["OMCG0018 tool 'q', input: input is not a Standard Schema object."]);
  });

  it('refuses input beside params or inputSchema (OMCG0014)', () => {
    expect(quickProblems({ input: type({ a: 'string' }), params: { a: String } })).toEqual([
      "OMCG0014 tool 'q': the tool has input and params.",
    ]);
    expect(quickProblems({ input: type({ a: 'string' }), inputSchema: { type: 'object' } })).toEqual([
      "OMCG0014 tool 'q': the tool has input and inputSchema.",
    ]);
  });

  it('lists a recursive schema as the whole input, its references resolving against it', async () => {
    const Category = z.object({
      name: z.string(),
      get subcategories() {
        return z.array(Category);
      },
    });
    const server = new McpServer({ name: 't', version: '1' }).tool('tree', { input: Category }, (c) => c.subcategories.length);
    expect(JSON.stringify(server.listTools()[0].inputSchema)).toBe(
      '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"type":"string"},"subcategories":{"type":"array","items":{"$ref":"#"}}},"required":["name","subcategories"]}',
    );
    expect(await server.callTool('tree', { name: 'a', subcategories: [{ name: 'b', subcategories: [] }] })).toEqual({
      content: [{ type: 'text', text: '1' }],
    });
  });
});
