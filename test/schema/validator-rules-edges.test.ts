import {
  ArrayMinSize,
  ArrayUnique,
  Contains,
  Equals,
  IsDivisibleBy,
  IsAlpha,
  IsDate,
  IsDefined,
  IsIn,
  IsInt,
  IsLowercase,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsNumberString,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
  MinLength,
  NotContains,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { ArrayOf, Field, SetOf } from '../../src';
import { dtoTool, expectDto } from '../support/dto-tool';

/**
 * The rules of src/schema/records/validator-rules.ts whose `enforced` must stay false: class-validator checks
 * something reading does not, so each test sends a value only class-validator refuses and expects its
 * message. (Were the rule counted as enforced, class-validator would be skipped and the value accepted.)
 * Each test: the record, its exact listing, the calls and their exact answers.
 */

enum Level {
  Low = 1,
  High = 2,
}

enum One {
  A = 'a',
}

enum Pair {
  A = 'a',
  B = 'b',
  C = 'c',
}

enum Signed {
  Down = -1,
  Up = 1,
}

class Item {
  @Field() id!: number;
}

const UUID_V4 = '0f8fad5b-d9cb-469f-a165-70867728950e';
const UUID_V1 = '0f8fad5b-d9cb-169f-a165-70867728950e';

/** A decorator of the application's own, registered under `name`, that accepts only 'x'. */
function OnlyX(name: string): PropertyDecorator {
  return (object, propertyName) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName: String(propertyName),
      validator: { validate: (v: unknown) => v === 'x', defaultMessage: () => `${String(propertyName)} must be x` },
    });
}

describe('validator-rules: rules left to class-validator', () => {
  it("@Matches(string, 'g') runs class-validator's own non-u regex, which refuses one astral character for '.'", async () => {
    class Dto {
      @Matches('^.$', 'g') @Field() code!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"code":{"type":"string","pattern":"^.$"}},"required":["code"],"additionalProperties":false}',
      [
        [{ code: 'a' }, 'ok'],
        [{ code: '\u{1F600}' }, "Argument 'dto.code' is not valid. code must match ^.$ regular expression"],
      ],
    );
  });

  it('@Matches(/^.$/) without the u flag: class-validator refuses one astral character that Unicode-mode reading accepts', async () => {
    class Dto {
      @Matches(/^.$/) @Field() code!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"code":{"type":"string","pattern":"^.$"}},"required":["code"],"additionalProperties":false}',
      [
        [{ code: 'a' }, 'ok'],
        [{ code: '\u{1F600}' }, "Argument 'dto.code' is not valid. code must match /^.$/ regular expression"],
      ],
    );
  });

  it('@Matches(/^.$/u) is read alone: both match in Unicode mode, so one astral character is accepted', async () => {
    class Dto {
      @Matches(/^.$/u) @Field() code!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"code":{"type":"string","pattern":"^.$"}},"required":["code"],"additionalProperties":false}',
      [
        [{ code: '\u{1F600}' }, 'ok'],
        [
          { code: 'ab' },
          'Argument \'dto.code\' is not valid. Expected text of the required form (the "pattern" of its schema), such as "a".',
        ],
      ],
    );
  });

  it('@ArrayUnique(selector) refuses items that repeat by the selector (class-validator keeps the selector to itself)', async () => {
    class Named {
      @Field() id!: number;
      @Field() n!: string;
    }
    class Dto {
      @ArrayUnique((o: Named) => o.id) @Field(ArrayOf(Named)) items!: Named[];
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"number"},"n":{"type":"string"}},"required":["id","n"],"additionalProperties":false},"uniqueItems":true}},"required":["items"],"additionalProperties":false}',
      [
        [
          {
            items: [
              { id: 1, n: 'a' },
              { id: 2, n: 'a' },
            ],
          },
          'ok',
        ],
        [
          {
            items: [
              { id: 1, n: 'a' },
              { id: 1, n: 'b' },
            ],
          },
          "Argument 'dto.items' is not valid. All items's elements must be unique",
        ],
      ],
    );
  });

  it("@IsUUID('4') refuses a version 1 UUID (the Uuid hint takes any version)", async () => {
    class Dto {
      @IsUUID('4') @Field() id!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"id":{"type":"string","format":"uuid"}},"required":["id"],"additionalProperties":false}',
      [
        [{ id: UUID_V4 }, 'ok'],
        [{ id: UUID_V1 }, "Argument 'dto.id' is not valid. id must be a UUID"],
      ],
    );
  });

  it('@IsNumber({ maxDecimalPlaces: 2 }) refuses 1.234', async () => {
    class Dto {
      @IsNumber({ maxDecimalPlaces: 2 }) @Field() x!: number;
    }
    await expectDto(Dto, '{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}', [
      [{ x: 1.23 }, 'ok'],
      [{ x: 1.234 }, "Argument 'dto.x' is not valid. x must be a number conforming to the specified constraints"],
    ]);
  });

  it('@IsNumber() on a bigint property: class-validator refuses the BigInt', async () => {
    class Dto {
      @IsNumber() @Field() n!: bigint;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"required":["n"],"additionalProperties":false}',
      [[{ n: 5 }, "Argument 'dto.n' is not valid. n must be a number conforming to the specified constraints"]],
    );
  });

  it('@IsDate() on a string property: class-validator refuses the text', async () => {
    class Dto {
      @IsDate() @Field() d!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"d":{"type":"string"}},"required":["d"],"additionalProperties":false}', [
      [{ d: '2020-01-01' }, "Argument 'dto.d' is not valid. d must be a Date instance"],
    ]);
  });

  it('@IsString() on a Date property: class-validator refuses the Date reading makes', async () => {
    class Dto {
      @IsString() @Field() d!: Date;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"d":{"type":"string","format":"date-time"}},"required":["d"],"additionalProperties":false}',
      [[{ d: '2020-01-01T00:00:00Z' }, "Argument 'dto.d' is not valid. d must be a string"]],
    );
  });

  it('@IsString() on a numeric enum: the enum is read by member name', async () => {
    class Dto {
      @IsString() @Field({ type: Level }) level!: Level;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"level":{"type":"string","enum":["Low","High"]}},"required":["level"],"additionalProperties":false}',
      [[{ level: 'Low' }, "Argument 'dto.level' is not valid. level must be a string"]],
    );
  });

  it('@IsObject() on a string property: class-validator refuses the text', async () => {
    class Dto {
      @IsObject() @Field() o!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"o":{"type":"string"}},"required":["o"],"additionalProperties":false}', [
      [{ o: 'a' }, "Argument 'dto.o' is not valid. o must be an object"],
    ]);
  });

  it('@IsDefined() on a nullable property: class-validator refuses null', async () => {
    class Dto {
      @IsDefined() @Field({ type: String, nullable: true }) v!: string | null;
    }
    await expectDto(Dto, '{"type":"object","properties":{"v":{"type":["string","null"]}},"required":["v"],"additionalProperties":false}', [
      [{ v: 'a' }, 'ok'],
      [{ v: null }, "Argument 'dto.v' is not valid. v should not be null or undefined"],
    ]);
  });

  it('@IsDefined() on an optional property: class-validator refuses it missing', async () => {
    class Dto {
      @IsDefined() @Field({ optional: true }) v?: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"v":{"type":"string"}},"additionalProperties":false}', [
      [{ v: 'a' }, 'ok'],
      [{}, "Argument 'dto.v' is not valid. v should not be null or undefined"],
    ]);
  });

  it("@IsAlpha('de-DE') is class-validator's: it lists no pattern and accepts umlauts", async () => {
    class Dto {
      @IsAlpha('de-DE') @Field() w!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"w":{"type":"string"}},"required":["w"],"additionalProperties":false}', [
      [{ w: 'Bär' }, 'ok'],
      [{ w: 'B1' }, "Argument 'dto.w' is not valid. w must contain only letters (a-zA-Z)"],
    ]);
  });

  it('@IsAlpha() is exact: listed as a pattern', async () => {
    class Dto {
      @IsAlpha() @Field() w!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"w":{"type":"string","pattern":"^[A-Za-z]+$"}},"required":["w"],"additionalProperties":false}',
      [
        [{ w: 'Bar' }, 'ok'],
        [{ w: 'Bär' }, 'Argument \'dto.w\' is not valid. Expected letters A to Z only, such as "abc".'],
      ],
    );
  });

  it("@IsNumberString({ no_symbols: true }) is class-validator's: it refuses a sign", async () => {
    class Dto {
      @IsNumberString({ no_symbols: true }) @Field() n!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"n":{"type":"string"}},"required":["n"],"additionalProperties":false}', [
      [{ n: '12' }, 'ok'],
      [{ n: '-1' }, "Argument 'dto.n' is not valid. n must be a number string"],
    ]);
  });

  it('@IsNumberString() is exact: listed as a pattern', async () => {
    class Dto {
      @IsNumberString() @Field() n!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"n":{"type":"string","pattern":"^[+-]?(?:[0-9]*[.])?[0-9]+$"}},"required":["n"],"additionalProperties":false}',
      [
        [{ n: '-1' }, 'ok'],
        [{ n: 'x' }, 'Argument \'dto.n\' is not valid. Expected a number as text, such as "42".'],
      ],
    );
  });

  it('@IsString({ each: true }) on Dates: class-validator refuses each Date reading makes', async () => {
    class Dto {
      @IsString({ each: true }) @Field({ type: [Date] }) ds!: Date[];
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"ds":{"type":"array","items":{"type":"string","format":"date-time"}}},"required":["ds"],"additionalProperties":false}',
      [[{ ds: ['2020-01-01T00:00:00Z'] }, "Argument 'dto.ds' is not valid. each value in ds must be a string"]],
    );
  });

  it("@IsIn([]) is class-validator's: nothing is listed and every value is refused by its message", async () => {
    class Dto {
      @IsIn([]) @Field() v!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"v":{"type":"string"}},"required":["v"],"additionalProperties":false}', [
      [{ v: 'a' }, "Argument 'dto.v' is not valid. v must be one of the following values: "],
    ]);
  });

  it("@IsIn with a value JSON cannot compare (null) is class-validator's: nothing is listed", async () => {
    class Dto {
      @IsIn(['a', null]) @Field() v!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"v":{"type":"string"}},"required":["v"],"additionalProperties":false}', [
      [{ v: 'a' }, 'ok'],
      [{ v: 'b' }, "Argument 'dto.v' is not valid. v must be one of the following values: a, "],
    ]);
  });

  it("@IsAlpha('en-US') is exact: listed as a pattern", async () => {
    class Dto {
      @IsAlpha('en-US') @Field() w!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"w":{"type":"string","pattern":"^[A-Za-z]+$"}},"required":["w"],"additionalProperties":false}',
      [
        [{ w: 'Bar' }, 'ok'],
        [{ w: 'Bär' }, 'Argument \'dto.w\' is not valid. Expected letters A to Z only, such as "abc".'],
      ],
    );
  });
});

describe('validator-rules: an enum and @IsIn, @IsNotIn, @Equals', () => {
  it("@Equals(['a']) on an enum of 'a' is class-validator's: an array is never === a member", async () => {
    class Dto {
      @Equals(['a']) @Field({ type: One }) v!: One;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"v":{"type":"string","enum":["a"]}},"required":["v"],"additionalProperties":false}',
      [[{ v: 'a' }, "Argument 'dto.v' is not valid. v must be equal to a"]],
    );
  });

  it("@Equals(['b']) on an enum of 'a' is class-validator's too (not read as @IsNotIn(['b']))", async () => {
    class Dto {
      @Equals(['b']) @Field({ type: One }) v!: One;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"v":{"type":"string","enum":["a"]}},"required":["v"],"additionalProperties":false}',
      [[{ v: 'a' }, "Argument 'dto.v' is not valid. v must be equal to b"]],
    );
  });

  it('@IsPositive() on an enum with a negative member: no enum test applies, class-validator refuses Down (-1)', async () => {
    class Dto {
      @IsPositive() @Field({ type: Signed }) v!: Signed;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"v":{"type":"string","enum":["Down","Up"]}},"required":["v"],"additionalProperties":false}',
      [
        [{ v: 'Up' }, 'ok'],
        [{ v: 'Down' }, "Argument 'dto.v' is not valid. v must be a positive number"],
      ],
    );
  });

  it("@NotContains('a') on an enum of 'a' is class-validator's (not read as @Equals('a'))", async () => {
    class Dto {
      @NotContains('a') @Field({ type: One }) v!: One;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"v":{"type":"string","enum":["a"]}},"required":["v"],"additionalProperties":false}',
      [[{ v: 'a' }, "Argument 'dto.v' is not valid. v should not contain a a string"]],
    );
  });

  it("an enum narrowed by @IsIn, @IsNotIn or @Equals, two exact rules on one number and @ValidateNested are reading's alone", async () => {
    class Dto {
      @IsIn(['a', 'b']) @Field({ type: Pair }) in!: Pair;
      @IsNotIn(['c']) @Field({ type: Pair }) notIn!: Pair;
      @Equals('a') @Field({ type: Pair }) equals!: Pair;
      @IsInt() @IsPositive() @IsDivisibleBy(2) n!: number;
      @ValidateNested() @Type(() => Item) item!: Item;
    }
    const value = { in: 'b', notIn: 'a', equals: 'a', n: 2, item: { id: 1 } };
    await expectDto(
      Dto,
      '{"type":"object","properties":{"in":{"type":"string","enum":["a","b"]},"notIn":{"type":"string","enum":["a","b"]},"equals":{"type":"string","enum":["a"]},"n":{"type":"integer","minimum":-9007199254740991,"exclusiveMinimum":0,"maximum":9007199254740991,"multipleOf":2},"item":{"type":"object","properties":{"id":{"type":"number"}},"required":["id"],"additionalProperties":false}},"required":["in","notIn","equals","n"],"additionalProperties":false}',
      [
        [value, 'ok'],
        [{ ...value, notIn: 'c' }, 'Argument \'dto.notIn\' is not valid. Expected one of: "a", "b".'],
        [{ ...value, n: 3 }, "Argument 'dto.n' is not valid. Expected a multiple of 2, such as 2."],
      ],
    );
    expect(dtoTool(Dto).readAlone()).toBe(true);
  });

  it("@Equals(text) on a Date property is class-validator's: the Date reading makes is never === text", async () => {
    class Dto {
      @Equals('2020-01-01T00:00:00.000Z') @Field() d!: Date;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"d":{"type":"string","format":"date-time"}},"required":["d"],"additionalProperties":false}',
      [[{ d: '2020-01-01T00:00:00.000Z' }, "Argument 'dto.d' is not valid. d must be equal to 2020-01-01T00:00:00.000Z"]],
    );
  });
});

describe('validator-rules: which metadata reading counts as its own', () => {
  it("one exact rule listed does not make another rule of the property reading's: @Contains('😀') still runs", async () => {
    class Dto {
      @IsNotEmpty() @Contains('\u{1F600}') @Field() s!: string;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"s":{"type":"string","minLength":1}},"required":["s"],"additionalProperties":false}',
      [
        [{ s: 'x\u{1F600}' }, 'ok'],
        [{ s: 'a' }, "Argument 'dto.s' is not valid. s must contain a \u{1F600} string"],
      ],
    );
  });

  it("a rule the table does not know (@IsLowercase) is class-validator's", async () => {
    class Dto {
      @IsLowercase() @Field() s!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}', [
      [{ s: 'abc' }, 'ok'],
      [{ s: 'ABC' }, "Argument 'dto.s' is not valid. s must be a lowercase string"],
    ]);
  });

  it("a decorator of the application's named 'constructor' is class-validator's (the table is no object to look it up in)", async () => {
    class Dto {
      @OnlyX('constructor') @Field() s!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}', [
      [{ s: 'x' }, 'ok'],
      [{ s: 'y' }, "Argument 'dto.s' is not valid. s must be x"],
    ]);
  });

  it("@IsUUID('4', { each: true }) refuses a version 1 UUID among the items (its arguments reach the table)", async () => {
    class Dto {
      @IsUUID('4', { each: true }) @Field({ type: [String] }) ids!: string[];
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}},"required":["ids"],"additionalProperties":false}',
      [
        [{ ids: [UUID_V4] }, 'ok'],
        [{ ids: [UUID_V1] }, "Argument 'dto.ids' is not valid. each value in ids must be a UUID"],
      ],
    );
  });

  it('@IsString({ each: true }) on one Date: class-validator checks the value itself, and refuses the Date', async () => {
    class Dto {
      @IsString({ each: true }) @Field() d!: Date;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"d":{"type":"string","format":"date-time"}},"required":["d"],"additionalProperties":false}',
      [[{ d: '2020-01-01T00:00:00Z' }, "Argument 'dto.d' is not valid. each value in d must be a string"]],
    );
  });

  it('@Min(0) on a bigint property: class-validator refuses the BigInt reading makes', async () => {
    class Dto {
      @Min(0) @Field() n!: bigint;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":9007199254740991}},"required":["n"],"additionalProperties":false}',
      [[{ n: 5 }, "Argument 'dto.n' is not valid. n must not be less than 0"]],
    );
  });

  it('@MaxLength(30) on a Date property: class-validator refuses the Date reading makes', async () => {
    class Dto {
      @MaxLength(30) @Field() d!: Date;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"d":{"type":"string","format":"date-time","maxLength":30}},"required":["d"],"additionalProperties":false}',
      [[{ d: '2020-01-01T00:00:00Z' }, "Argument 'dto.d' is not valid. d must be shorter than or equal to 30 characters"]],
    );
  });

  it('@ArrayMinSize(1) on a Set property: class-validator refuses the Set reading makes', async () => {
    class Dto {
      @ArrayMinSize(1) @Field({ type: SetOf(String) }) s!: Set<string>;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"s":{"type":"array","items":{"type":"string"},"minItems":1,"uniqueItems":true}},"required":["s"],"additionalProperties":false}',
      [[{ s: ['a'] }, "Argument 'dto.s' is not valid. s must contain at least 1 elements"]],
    );
  });
});

describe('validator-rules: what rules say of the type, and what is listed', () => {
  it('@ValidateNested() with @Type(() => Item) lists one Item, not an array', async () => {
    class Dto {
      @ValidateNested() @Type(() => Item) item!: Item;
    }
    // Only @ValidateNested checks it, and it skips a missing value, as the app's pipe does: not required.
    await expectDto(
      Dto,
      '{"type":"object","properties":{"item":{"type":"object","properties":{"id":{"type":"number"}},"required":["id"],"additionalProperties":false}},"additionalProperties":false}',
      [
        [{ item: { id: 1 } }, 'ok'],
        [{}, 'ok'],
        [{ item: [{ id: 1 }] }, 'Argument \'dto.item\' is not valid. Expected an object, such as {"id":0}, got an array.'],
      ],
    );
  });

  it('@ValidateNested({ each: true }) with @Type(() => Item) lists an array of Item where the declared type is erased', async () => {
    class Dto {
      @ValidateNested({ each: true }) @Type(() => Item) items!: Iterable<Item>;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"number"}},"required":["id"],"additionalProperties":false}}},"additionalProperties":false}',
      [
        [{ items: [{ id: 1 }] }, 'ok'],
        [{ items: { id: 1 } }, 'Argument \'dto.items\' is not valid. Expected an array, such as [{"id":0}], got an object.'],
      ],
    );
  });

  it('@Min(0, { each: true }) with @Type(() => Number) on a Map lists a map of numbers, not an array', async () => {
    class Dto {
      @Type(() => Number) @Min(0, { each: true }) m!: Map<string, number>;
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"number","minimum":0}}},"required":["m"],"additionalProperties":false}',
      [
        [{ m: { a: 1 } }, 'ok'],
        [{ m: [1] }, 'Argument \'dto.m\' is not valid. Expected an object, such as {"key":0}, got an array.'],
      ],
    );
  });

  it('rules under @ValidateIf say nothing of an erased type: the element type must be given', () => {
    class Dto {
      @ValidateIf(() => true) @IsString({ each: true }) tags!: unknown[];
    }
    expect(() => dtoTool(Dto)).toThrow(
      "Tools has 1 definition problem:\n  OMCG0005 Tools.take, parameter 'dto', property 'tags': Array has no element type: TypeScript erases it. Fix: give a type hint such as [String] or ArrayOf(Int32), or run `npx onemodelcontext generate`, which reads the declared type from the source.",
    );
  });

  it('a rule with groups says nothing of an erased type, and is not listed; class-validator, run without groups, still runs it', async () => {
    class Dto {
      @IsString({ each: true }) @IsIn(['a', 'b'], { each: true, groups: ['g'] }) tags!: unknown[];
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}},"required":["tags"],"additionalProperties":false}',
      [
        [{ tags: ['a'] }, 'ok'],
        [{ tags: ['c'] }, "Argument 'dto.tags' is not valid. each value in tags must be one of the following values: a, b"],
      ],
    );
  });

  it('@IsNotIn of strings says nothing of an erased type (only @IsIn of strings is an enum)', async () => {
    class Dto {
      @IsString({ each: true }) @IsNotIn(['a', 'b'], { each: true }) tags!: unknown[];
    }
    await expectDto(
      Dto,
      '{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","not":{"enum":["a","b"]}}}},"required":["tags"],"additionalProperties":false}',
      [
        [{ tags: ['c'] }, 'ok'],
        [{ tags: ['a'] }, 'Argument \'dto.tags[0]\' is not valid. Expected none of: "a", "b", such as "text".'],
      ],
    );
  });

  it('@IsOptional() under @ValidateIf still makes the property optional', async () => {
    class Dto {
      @ValidateIf((o: { v?: string }) => o.v !== 'skip') @IsOptional() @MinLength(3) @Field() v?: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"v":{"type":["string","null"]}},"additionalProperties":false}', [
      [{}, 'ok'],
      [{ v: 'skip' }, 'ok'],
      [{ v: 'ab' }, "Argument 'dto.v' is not valid. v must be longer than or equal to 3 characters"],
    ]);
  });

  it('@MinLength with groups is not listed; class-validator, run without groups, refuses a short text', async () => {
    class Dto {
      @MinLength(3, { groups: ['g'] }) @Field() s!: string;
    }
    await expectDto(Dto, '{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}', [
      [{ s: 'abc' }, 'ok'],
      [{ s: 'ab' }, "Argument 'dto.s' is not valid. s must be longer than or equal to 3 characters"],
    ]);
  });
});
