import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { McpServer, Param, Tool, type ValidationOptions } from '../../src';
import { textOf } from '../support/probe';

type Dto = abstract new (...args: never[]) => object;

/** A server with one tool `take(dto)` under the given validation options; what the method received is kept. */
function tool(dto: Dto, validation?: ValidationOptions) {
  const received: unknown[] = [];
  class Tools {
    @Tool() take(@Param({ name: 'dto', type: dto }) value: object): string {
      received.push(value);
      return 'ok';
    }
  }
  const server = new McpServer({ name: 'parity', version: '1' }, { validation }).add(new Tools());
  return {
    received,
    listed: () => JSON.stringify((server.listTools()[0].inputSchema as { properties: Record<string, unknown> }).properties.dto),
    call: async (value: unknown) => textOf(await server.callTool('take', { dto: value })),
  };
}

@ValidatorConstraint({ name: 'publicUrl', async: true })
class PublicUrl implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return typeof value === 'string' && value.startsWith('https://') && !/^https:\/\/(10|127|192\.168)\./.test(value);
  }
  defaultMessage(): string {
    return 'url must be a public https URL';
  }
}

class Fetch {
  @IsString() @Validate(PublicUrl) url!: string;
}

describe('1. async constraints run', () => {
  it('refuses what an async constraint refuses, and the method never receives it', async () => {
    const t = tool(Fetch);
    expect(await t.call({ url: 'http://10.0.0.7/admin' })).toBe("Argument 'dto.url' is not valid. url must be a public https URL");
    expect(t.received).toEqual([]);
    expect(await t.call({ url: 'https://example.com/' })).toBe('ok');
    expect(t.received).toEqual([Object.assign(new Fetch(), { url: 'https://example.com/' })]);
  });

  it('runs them on records nested in arrays, named by their path', async () => {
    class Batch {
      @ValidateNested({ each: true }) @Type(() => Fetch) items!: Fetch[];
    }
    const t = tool(Batch);
    expect(await t.call({ items: [{ url: 'https://a.example/' }, { url: 'http://10.0.0.7/' }, { url: 'https://127.0.0.1/' }] })).toBe(
      "Argument 'dto.items[1].url' is not valid. url must be a public https URL\nArgument 'dto.items[2].url' is not valid. url must be a public https URL",
    );
  });
});

describe('2. a @ValidateIf property is never required', () => {
  class Notify {
    @IsBoolean() sendEmail!: boolean;
    @IsDefined() @IsEmail() @ValidateIf((o: Notify) => o.sendEmail) email?: string;
  }

  it('accepts it missing when the condition is false, and refuses it when the condition holds', async () => {
    const t = tool(Notify);
    expect(t.listed()).toBe(
      '{"type":"object","properties":{"sendEmail":{"type":"boolean"},"email":{"type":["string","null"]}},"required":["sendEmail"],"additionalProperties":false}',
    );
    expect(await t.call({ sendEmail: false })).toBe('ok');
    expect(await t.call({ sendEmail: true })).toBe(
      "Argument 'dto.email' is not valid. email should not be null or undefined\nArgument 'dto.email' is not valid. email must be an email",
    );
    expect(await t.call({ sendEmail: true, email: 'ada@example.com' })).toBe('ok');
  });

  it('lists it as optional with decorators alone', () => {
    class Alt {
      @ValidateIf((o: Alt) => o.alt !== undefined) @IsString() alt?: string;
    }
    expect(tool(Alt).listed()).toBe('{"type":"object","properties":{"alt":{"type":["string","null"]}},"additionalProperties":false}');
  });
});

describe('4. unknown (undecorated) properties follow the options in force', () => {
  class Named {
    @IsString() name!: string;
  }

  it('are refused by default (whitelist and forbidNonWhitelisted): the record is closed', async () => {
    const t = tool(Named);
    expect(t.listed()).toBe('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}');
    expect(await t.call({ name: 'a', extra: 1 })).toBe("Argument 'dto.extra' is not valid. There is no such property.");
  });

  it('are stripped under whitelist alone, and the listing says nothing against them', async () => {
    const t = tool(Named, { whitelist: true });
    expect(t.listed()).toBe('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}');
    expect(await t.call({ name: 'a', extra: 1 })).toBe('ok');
    expect(t.received).toEqual([Object.assign(new Named(), { name: 'a' })]);
  });

  it('are kept as sent without whitelist', async () => {
    const t = tool(Named, { whitelist: false });
    expect(t.listed()).toBe('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}');
    expect(await t.call({ name: 'a', extra: { deep: [1] } })).toBe('ok');
    expect(t.received).toEqual([Object.assign(new Named(), { name: 'a', extra: { deep: [1] } })]);
  });
});

describe('5. rules the app never runs are not enforced', () => {
  class Point {
    @IsInt() @Min(0) x!: number;
  }

  it('@Type without @ValidateNested: any object, built into the class, its rules not run', async () => {
    class Shape {
      @IsObject() @Type(() => Point) at!: Point;
    }
    const t = tool(Shape);
    expect(t.listed()).toBe('{"type":"object","properties":{"at":{"type":"object"}},"required":["at"],"additionalProperties":false}');
    expect(await t.call({ at: { x: -5, y: 'z' } })).toBe('ok');
    expect(t.received).toEqual([Object.assign(new Shape(), { at: Object.assign(new Point(), { x: -5, y: 'z' }) })]);
    expect((t.received[0] as Shape).at).toBeInstanceOf(Point);
  });

  it('@ValidateNested({ each: true }) on a single object: one object, validated', async () => {
    class Shape {
      @ValidateNested({ each: true }) @Type(() => Point) at!: Point;
    }
    const t = tool(Shape);
    expect(t.listed()).toBe(
      // Only @ValidateNested checks it, which skips a missing value: not required.
      '{"type":"object","properties":{"at":{"type":"object","properties":{"x":{"type":"integer","minimum":0,"maximum":9007199254740991}},"required":["x"],"additionalProperties":false}},"additionalProperties":false}',
    );
    expect(await t.call({ at: { x: 1 } })).toBe('ok');
  });

  it('a nested DTO without @Type is a plain object class-validator finds no rule of', async () => {
    class Shape {
      @ValidateNested() at!: Point;
    }
    expect(tool(Shape).listed()).toBe(
      '{"type":"object","properties":{"at":{"type":"object","properties":{},"additionalProperties":false}},"additionalProperties":false}',
    );
    expect(await tool(Shape).call({ at: { x: 1 } })).toBe("Argument 'dto.at.x' is not valid. There is no such property.");
    const stripped = tool(Shape, { whitelist: true });
    expect(await stripped.call({ at: { x: 1 } })).toBe('ok');
    expect(stripped.received).toEqual([Object.assign(new Shape(), { at: {} })]);
    const kept = tool(Shape, { whitelist: false });
    expect(await kept.call({ at: { x: -1 } })).toBe('ok');
    expect(kept.received).toEqual([Object.assign(new Shape(), { at: { x: -1 } })]);
  });
});

describe('6. @IsOptional() with @Transform: class-validator judges the transformed value', () => {
  class Page {
    @IsOptional() @Transform(({ value }) => parseInt(value as string, 10)) @IsInt() @Min(1) @Max(100) size?: number;
  }

  it('refuses null, which the transform makes NaN', async () => {
    const t = tool(Page);
    expect(await t.call({ size: null })).toBe(
      "Argument 'dto.size' is not valid. size must not be greater than 100\nArgument 'dto.size' is not valid. size must not be less than 1\nArgument 'dto.size' is not valid. size must be an integer number",
    );
    expect(t.received).toEqual([]);
    expect(await t.call({})).toBe('ok');
    expect(await t.call({ size: 5 })).toBe('ok');
  });
});

describe('8. every failure at once', () => {
  it('names every failing rule of a property', async () => {
    class Slug {
      @MinLength(5) @Matches(/^[a-z]+$/u) slug!: string;
    }
    expect(await tool(Slug).call({ slug: 'AB' })).toBe(
      'Argument \'dto.slug\' is not valid. Expected at least 5 characters, such as "textx".\nArgument \'dto.slug\' is not valid. Expected text of the required form (the "pattern" of its schema), such as "textx".',
    );
  });

  it('names every wrong field', async () => {
    class Person {
      @IsString() name!: string;
      @IsInt() @Min(0) age!: number;
      @IsEmail() email!: string;
    }
    expect(await tool(Person).call({ name: 5, age: -1, email: 'a@b.c' })).toBe(
      [
        'Argument \'dto.name\' is not valid. Expected a string, such as "text", got a number.',
        "Argument 'dto.age' is not valid. Expected a whole number from 0 to 9007199254740991, such as 0.",
        "Argument 'dto.email' is not valid. email must be an email",
      ].join('\n'),
    );
  });
});

describe('skipMissingProperties', () => {
  class Profile {
    @IsString() name!: string;
    @IsDefined() @IsString() id!: string;
  }

  it('makes a property without @IsDefined optional and nullable, in the listing and in reading', async () => {
    const t = tool(Profile, { skipMissingProperties: true });
    expect(t.listed()).toBe(
      '{"type":"object","properties":{"name":{"type":["string","null"]},"id":{"type":"string"}},"required":["id"],"additionalProperties":false}',
    );
    expect(await t.call({ id: 'a' })).toBe('ok');
    expect(await t.call({ id: 'a', name: null })).toBe('ok');
    expect(await t.call({ name: 'n' })).toBe('Argument \'dto.id\' is not valid. It is required: a string, such as "text".');
  });
});
