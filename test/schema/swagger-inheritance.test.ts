import * as mapped from '@nestjs/mapped-types';
import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Min, validate } from 'class-validator';
import { McpServer, Tool, type CallToolResult } from '../../src';

/**
 * A record whose base and subclass both carry @ApiProperty lists and reads the base's class-validator
 * rules, as the same classes do without @nestjs/swagger; mapped types keep them too. The judge is
 * class-validator's own verdict on the same input.
 */

class Page {
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) skip?: number = 0;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) take?: number = 10;
}

class Search extends Page {
  @ApiPropertyOptional() @IsOptional() @IsString() q?: string;
}

class PlainPage {
  @IsOptional() @IsInt() @Min(0) skip?: number = 0;
  @IsOptional() @IsInt() @Min(1) take?: number = 10;
}

class PlainSearch extends PlainPage {
  @IsOptional() @IsString() q?: string;
}

class Item {
  @ApiProperty() @IsString() @Length(2, 10) name!: string;
  @ApiProperty() @IsInt() @Min(1) qty!: number;
}

class SwaggerPartialItem extends PartialType(Item) {}
class SwaggerPickedItem extends PickType(Item, ['qty'] as const) {}
class MappedPartialItem extends mapped.PartialType(Item) {}
class MappedPickedItem extends mapped.PickType(Item, ['qty'] as const) {}

class Tools {
  @Tool() find(search: Search): string {
    return JSON.stringify(search);
  }
  @Tool() findPlain(search: PlainSearch): string {
    return JSON.stringify(search);
  }
  @Tool() swaggerPartial(item: SwaggerPartialItem): string {
    return JSON.stringify(item);
  }
  @Tool() swaggerPick(item: SwaggerPickedItem): string {
    return JSON.stringify(item);
  }
  @Tool() mappedPartial(item: MappedPartialItem): string {
    return JSON.stringify(item);
  }
  @Tool() mappedPick(item: MappedPickedItem): string {
    return JSON.stringify(item);
  }
}

const server = new McpServer({ name: 'swagger-inheritance', version: '1' }).add(new Tools());
const listings = new Map(server.listTools().map((t) => [t.name, t.inputSchema as { properties: Record<string, unknown> }]));

function argument(tool: string): string {
  return JSON.stringify(Object.values(listings.get(tool)!.properties)[0]);
}

function verdict(result: CallToolResult): string {
  const text = (result.content[0] as { text: string }).text;
  return result.isError ? text : `accepted ${text}`;
}

async function classValidator(dto: new () => object, plain: object): Promise<string> {
  const errors = await validate(plainToInstance(dto, plain), { forbidUnknownValues: false });
  return errors.length === 0 ? 'accepted' : `refused ${errors.map((e) => e.property).join(',')}`;
}

const SEARCH =
  '{"type":"object","properties":{' +
  '"skip":{"type":["integer","null"],"minimum":0,"maximum":9007199254740991,"default":0},' +
  '"take":{"type":["integer","null"],"minimum":1,"maximum":9007199254740991,"default":10},' +
  '"q":{"type":["string","null"]}},"additionalProperties":false}';

describe('a subclass under @nestjs/swagger keeps its base class-validator rules', () => {
  it('lists the base rules, exactly as without swagger', () => {
    expect(argument('find')).toBe(SEARCH);
    expect(argument('find_plain')).toBe(SEARCH);
  });

  const refused: [string, object, string, string][] = [
    [
      'take: 0',
      { take: 0 },
      'refused take',
      "Argument 'search.take' is not valid. Expected a whole number from 1 to 9007199254740991, such as 1.",
    ],
    [
      'skip: -1',
      { skip: -1 },
      'refused skip',
      "Argument 'search.skip' is not valid. Expected a whole number from 0 to 9007199254740991, such as 0.",
    ],
    [
      'skip: 1.5',
      { skip: 1.5 },
      'refused skip',
      "Argument 'search.skip' is not valid. Expected a whole number from 0 to 9007199254740991, such as 0.",
    ],
  ];
  it.each(refused)('refuses %s with and without swagger, as class-validator does', async (_name, plain, judged, message) => {
    expect(await classValidator(Search, plain)).toBe(judged);
    expect(await classValidator(PlainSearch, plain)).toBe(judged);
    expect(verdict(await server.callTool('find', { search: plain }))).toBe(message);
    expect(verdict(await server.callTool('find_plain', { search: plain }))).toBe(message);
  });

  const accepted: [string, object, string][] = [
    ['nothing', {}, '{"skip":0,"take":10}'],
    ['take: 1 and a query', { take: 1, q: 'lamp' }, '{"skip":0,"take":1,"q":"lamp"}'],
    ['skip: 0', { skip: 0 }, '{"skip":0,"take":10}'],
  ];
  it.each(accepted)('accepts %s with and without swagger, as class-validator does', async (_name, plain, received) => {
    expect(await classValidator(Search, plain)).toBe('accepted');
    expect(await classValidator(PlainSearch, plain)).toBe('accepted');
    expect(verdict(await server.callTool('find', { search: plain }))).toBe(`accepted ${received}`);
    expect(verdict(await server.callTool('find_plain', { search: plain }))).toBe(`accepted ${received}`);
  });
});

describe('mapped types of @nestjs/swagger and @nestjs/mapped-types keep class-validator rules', () => {
  const NAME = '"name":{"type":["string","null"],"minLength":2,"maxLength":10}';
  const QTY_OPTIONAL = '"qty":{"type":["integer","null"],"minimum":1,"maximum":9007199254740991}';
  const QTY = '"qty":{"type":"integer","minimum":1,"maximum":9007199254740991}';

  it('lists PartialType with every rule, each property optional', () => {
    const expected = `{"type":"object","properties":{${NAME},${QTY_OPTIONAL}},"additionalProperties":false}`;
    expect(argument('swagger_partial')).toBe(expected);
    expect(argument('mapped_partial')).toBe(expected);
  });

  it('lists PickType with the picked property and its rules', () => {
    const expected = `{"type":"object","properties":{${QTY}},"required":["qty"],"additionalProperties":false}`;
    expect(argument('swagger_pick')).toBe(expected);
    expect(argument('mapped_pick')).toBe(expected);
  });

  const cases: [string, new () => object, string, object, string][] = [
    [
      'swagger PartialType',
      SwaggerPartialItem,
      'swagger_partial',
      { qty: 0 },
      "Argument 'item.qty' is not valid. Expected a whole number from 1 to 9007199254740991, such as 1.",
    ],
    [
      'swagger PartialType',
      SwaggerPartialItem,
      'swagger_partial',
      { name: 'x' },
      'Argument \'item.name\' is not valid. Expected 2 to 10 characters, such as "text".',
    ],
    [
      'mapped-types PartialType',
      MappedPartialItem,
      'mapped_partial',
      { qty: 0 },
      "Argument 'item.qty' is not valid. Expected a whole number from 1 to 9007199254740991, such as 1.",
    ],
    [
      'swagger PickType',
      SwaggerPickedItem,
      'swagger_pick',
      { qty: 0 },
      "Argument 'item.qty' is not valid. Expected a whole number from 1 to 9007199254740991, such as 1.",
    ],
    [
      'mapped-types PickType',
      MappedPickedItem,
      'mapped_pick',
      { qty: 0 },
      "Argument 'item.qty' is not valid. Expected a whole number from 1 to 9007199254740991, such as 1.",
    ],
  ];
  it.each(cases)('%s refuses case %# as class-validator does', async (_name, dto, tool, plain, message) => {
    expect((await classValidator(dto, plain)).startsWith('refused')).toBe(true);
    expect(verdict(await server.callTool(tool, { item: plain }))).toBe(message);
  });

  it.each([
    ['swagger_partial', SwaggerPartialItem, {}],
    ['mapped_partial', MappedPartialItem, { qty: 2 }],
    ['swagger_pick', SwaggerPickedItem, { qty: 2 }],
    ['mapped_pick', MappedPickedItem, { qty: 2 }],
  ] as const)('%s accepts what class-validator accepts', async (tool, dto, plain) => {
    expect(await classValidator(dto, plain)).toBe('accepted');
    expect(verdict(await server.callTool(tool, { item: plain }))).toBe(`accepted ${JSON.stringify(plain)}`);
  });
});
