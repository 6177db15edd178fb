import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDate,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  validateSync,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ConstraintSchema, McpServer, Tool, type CallToolResult } from '../../src';
import type { Schema } from '../support/json-schema';

/**
 * Nest DTOs as they are written, with no hint of ours: class-validator's rules are the type evidence, and
 * the listing and reading agree with what class-validator itself accepts (plainToInstance + validateSync,
 * as Nest's ValidationPipe runs them).
 */

interface Country {
  code: string;
}

class CountryDto implements Country {
  @IsString() @Length(2, 2) code!: string;
}

type Sort = 'name' | 'date';

class SearchDto {
  @IsArray() @IsString({ each: true }) tags!: string[];
  @IsArray() @IsInt({ each: true }) ids!: number[];
  @IsOptional() @IsArray() @IsNumber({}, { each: true }) @IsPositive({ each: true }) weights?: number[];
  @IsArray() @IsBoolean({ each: true }) flags!: boolean[];
  @IsIn(['name', 'date']) sort!: Sort;
  @IsIn(['asc', 'desc'], { each: true }) @IsArray() orders!: ('asc' | 'desc')[];
  @IsObject() filters!: Record<string, unknown>;
  @IsOptional() @IsString() comment?: string;
  @ValidateIf((o: SearchDto) => o.sort === 'name') @IsString() @Length(2, 10) platformId!: string;
  @IsArray() @Type(() => CountryDto) @ValidateNested({ each: true }) countries!: Country[];
  @IsOptional() @IsDate() @Type(() => Date) clearedAt?: Date | null;
}

class CreateItemDto {
  @ApiProperty({ description: 'What the item is called', example: 'Lamp' }) @IsString() name!: string;
  @ApiProperty({ enum: ['new', 'used'], description: 'Its state' }) condition!: string;
  @ApiProperty({ enum: ['red', 'blue'], description: 'An enum class-validator does not check' }) @IsString() color!: string;
  @ApiPropertyOptional({ example: 3 }) @IsOptional() @IsInt() @IsPositive() count?: number;
  @ApiProperty() @IsString() owner!: string;
}

class UpdateItemDto extends PartialType(CreateItemDto) {}
class ItemNameDto extends PickType(CreateItemDto, ['name'] as const) {}
class ItemWithoutOwnerDto extends OmitType(CreateItemDto, ['owner'] as const) {}
class LabelDto {
  @ApiProperty() @IsArray() @IsString({ each: true }) labels!: string[];
}
class LabelledItemDto extends IntersectionType(ItemNameDto, LabelDto) {}

class Tools {
  @Tool() search(query: SearchDto): string {
    return JSON.stringify(query);
  }
  @Tool() create(item: CreateItemDto): string {
    return JSON.stringify(item);
  }
  @Tool() update(item: UpdateItemDto): string {
    return JSON.stringify(item);
  }
  @Tool() rename(item: ItemNameDto): string {
    return JSON.stringify(item);
  }
  @Tool() draft(item: ItemWithoutOwnerDto): string {
    return JSON.stringify(item);
  }
  @Tool() label(item: LabelledItemDto): string {
    return JSON.stringify(item);
  }
}

const server = new McpServer({ name: 'dtos', version: '1' }).add(new Tools());
const listings = new Map(server.listTools().map((t) => [t.name, t.inputSchema as Schema]));

function argument(tool: string): string {
  return JSON.stringify(Object.values(listings.get(tool)!.properties!)[0]);
}

describe('Nest DTOs start with no hints and list what class-validator means', () => {
  it('lists element types from each, enums from @IsIn, JSON objects, null under @IsOptional, arrays of @Type', () => {
    expect(argument('search')).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          tags: { type: 'array', items: { type: 'string' } },
          ids: { type: 'array', items: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } },
          weights: { type: ['array', 'null'], items: { type: 'number', exclusiveMinimum: 0 } },
          flags: { type: 'array', items: { type: 'boolean' } },
          sort: { type: 'string', enum: ['name', 'date'] },
          orders: { type: 'array', items: { type: 'string', enum: ['asc', 'desc'] } },
          filters: { type: 'object' },
          comment: { type: ['string', 'null'] },
          // Under @ValidateIf the condition decides: never required, and null reaches it.
          platformId: { type: ['string', 'null'] },
          countries: {
            type: 'array',
            items: {
              type: 'object',
              properties: { code: { type: 'string', minLength: 2, maxLength: 2 } },
              required: ['code'],
              additionalProperties: false,
            },
          },
          clearedAt: { type: ['string', 'null'], format: 'date-time' },
        },
        required: ['tags', 'ids', 'flags', 'sort', 'orders', 'filters', 'countries'],
        additionalProperties: false,
      }),
    );
  });

  it('lists @ApiProperty descriptions and examples, and its enums where class-validator says nothing', () => {
    expect(argument('create')).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          name: { type: 'string', description: 'What the item is called', examples: ['Lamp'] },
          condition: { type: 'string', description: 'Its state', enum: ['new', 'used'] },
          color: { type: 'string', description: 'An enum class-validator does not check' },
          count: { type: ['integer', 'null'], minimum: -9007199254740991, exclusiveMinimum: 0, maximum: 9007199254740991, examples: [3] },
          owner: { type: 'string' },
        },
        required: ['name', 'condition', 'color', 'owner'],
        additionalProperties: false,
      }),
    );
  });

  it('lists mapped types: PartialType makes every property optional and nullable, Pick and Omit keep their own', () => {
    const update = JSON.parse(argument('update')) as Schema;
    expect(update.required).toBeUndefined();
    expect(JSON.stringify(update.properties!.name)).toBe(
      '{"type":["string","null"],"description":"What the item is called","examples":["Lamp"]}',
    );
    expect(Object.keys(JSON.parse(argument('rename')).properties)).toEqual(['name']);
    expect(Object.keys(JSON.parse(argument('draft')).properties)).toEqual(['name', 'condition', 'color', 'count']);
    expect(argument('label')).toBe(
      '{"type":"object","properties":{"name":{"type":"string","description":"What the item is called","examples":["Lamp"]},' +
        '"labels":{"type":"array","items":{"type":"string"}}},"required":["name","labels"],"additionalProperties":false}',
    );
  });
});

function verdict(result: CallToolResult): string {
  const text = (result.content[0] as { text: string }).text;
  return result.isError ? text : 'accepted';
}

function classValidator(dto: new () => object, plain: object): string {
  const errors = validateSync(plainToInstance(dto, plain), { forbidUnknownValues: false });
  return errors.length === 0 ? 'accepted' : 'refused';
}

const valid = {
  tags: ['a', 'b'],
  ids: [1, 2],
  flags: [true],
  sort: 'date',
  orders: ['asc'],
  filters: { owner: 'me' },
  platformId: 'p1',
  countries: [{ code: 'FR' }, { code: 'DE' }],
};

describe('reading agrees with class-validator on those DTOs', () => {
  const cases: [string, object][] = [
    ['a valid query', valid],
    ['null where @IsOptional', { ...valid, comment: null, weights: null, clearedAt: null }],
    ['a date that clears', { ...valid, clearedAt: '2026-12-01T10:00:00Z' }],
    ['an array of nested DTOs under an interface type', { ...valid, countries: [{ code: 'GB' }] }],
    ['a positive weight each', { ...valid, weights: [0.5, 2] }],
  ];
  it.each(cases)('accepts %s', async (_name, plain) => {
    expect(classValidator(SearchDto, plain)).toBe('accepted');
    expect(verdict(await server.callTool('search', { query: plain }))).toBe('accepted');
  });

  const refused: [string, object, string][] = [
    [
      'a number among strings',
      { ...valid, tags: ['a', 1] },
      'Argument \'query.tags[1]\' is not valid. Expected a string, such as "text", got a number.',
    ],
    ['a value @IsIn does not list', { ...valid, sort: 'size' }, 'Argument \'query.sort\' is not valid. Expected one of: "name", "date".'],
    [
      'a zero weight',
      { ...valid, weights: [1, 0] },
      "Argument 'query.weights[1]' is not valid. Expected a number greater than 0, such as 1.",
    ],
    [
      'one nested object where an array is',
      { ...valid, countries: { code: 'FR' } },
      'Argument \'query.countries\' is not valid. Expected an array, such as [{"code":"te"}], got an object.',
    ],
    [
      'an array where a JSON object is',
      { ...valid, filters: [] },
      "Argument 'query.filters' is not valid. Expected a JSON object, such as {}, got an array.",
    ],
  ];
  it.each(refused)('refuses %s', async (_name, plain, message) => {
    expect(classValidator(SearchDto, plain)).toBe('refused');
    expect(verdict(await server.callTool('search', { query: plain }))).toBe(message);
  });

  it('leaves the rules under @ValidateIf to class-validator: they hold only when its condition does', async () => {
    const short = { ...valid, platformId: 'p' };
    expect(classValidator(SearchDto, short)).toBe('accepted');
    expect(verdict(await server.callTool('search', { query: short }))).toBe('accepted');
    expect(classValidator(SearchDto, { ...short, sort: 'name' })).toBe('refused');
    expect(verdict(await server.callTool('search', { query: { ...short, sort: 'name' } }))).toBe(
      "Argument 'query.platformId' is not valid. platformId must be longer than or equal to 2 characters",
    );
  });

  it('reports every failing rule of a property, with class-validator messages as written', async () => {
    class Strict {
      @ValidateIf((o: Strict) => o.code !== 'skip') @IsString() @Length(3, 3) @IsIn(['abc']) code!: string;
    }
    class More {
      @Tool() strict(value: Strict): string {
        return value.code;
      }
    }
    const s = new McpServer({ name: 'more', version: '1' }).add(new More());
    expect(verdict(await s.callTool('strict', { value: { code: 'abcd' } }))).toBe(
      "Argument 'value.code' is not valid. code must be one of the following values: abc\nArgument 'value.code' is not valid. code must be shorter than or equal to 3 characters",
    );
    expect(verdict(await s.callTool('strict', { value: { code: 'skip' } }))).toBe('accepted');
  });

  it('reads PartialType updates with null as class-validator does', async () => {
    expect(classValidator(UpdateItemDto, { name: null, count: 2 })).toBe('accepted');
    expect(verdict(await server.callTool('update', { item: { name: null, count: 2 } }))).toBe('accepted');
    expect(classValidator(UpdateItemDto, { count: 0 })).toBe('refused');
    expect(verdict(await server.callTool('update', { item: { count: 0 } }))).toBe(
      "Argument 'item.count' is not valid. Expected a number greater than 0, such as 1.",
    );
  });
});

describe('custom constraints speak through @ConstraintSchema', () => {
  @ValidatorConstraint({ name: 'currency' })
  @ConstraintSchema({ schema: { pattern: '^[A-Z]{3}$' }, description: 'An ISO 4217 currency code' })
  class IsCurrency implements ValidatorConstraintInterface {
    validate(value: unknown): boolean {
      return typeof value === 'string' && ['EUR', 'USD', 'GBP'].includes(value);
    }
    defaultMessage(): string {
      return 'currency must be a known ISO 4217 code';
    }
  }

  class Price {
    @IsNumber() @IsPositive() amount!: number;
    @IsString() @Validate(IsCurrency) currency!: string;
  }
  class Shop {
    @Tool() price(price: Price): string {
      return `${price.amount} ${price.currency}`;
    }
  }
  const shop = new McpServer({ name: 'shop', version: '1' }).add(new Shop());

  it('lists the fragment and description on the property it checks', () => {
    const listed = shop.listTools()[0].inputSchema as Schema;
    expect(JSON.stringify(listed.properties!.price.properties!.currency)).toBe(
      '{"type":"string","description":"An ISO 4217 currency code","pattern":"^[A-Z]{3}$"}',
    );
  });

  it('still runs the constraint with class-validator, its message as written', async () => {
    expect(verdict(await shop.callTool('price', { price: { amount: 2, currency: 'XYZ' } }))).toBe(
      "Argument 'price.currency' is not valid. currency must be a known ISO 4217 code",
    );
    expect(verdict(await shop.callTool('price', { price: { amount: 2, currency: 'EUR' } }))).toBe('accepted');
  });

  it('refuses a fragment that is not valid JSON Schema 2020-12 as a definition problem', () => {
    @ValidatorConstraint({ name: 'odd' })
    @ConstraintSchema({ schema: { minLength: -1 } })
    class Odd implements ValidatorConstraintInterface {
      validate(): boolean {
        return true;
      }
    }
    class Named {
      @IsString() @Validate(Odd) name!: string;
    }
    class Bad {
      @Tool() name(named: Named): string {
        return named.name;
      }
    }
    expect(() => new McpServer({ name: 'bad', version: '1' }).add(new Bad())).toThrow(
      "OMCG0013 Bad.name, parameter 'named', property 'name': @ConstraintSchema of Odd lists a schema that is not valid JSON Schema 2020-12: schema/minLength must be >= 0.",
    );
  });
});
