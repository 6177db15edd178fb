import { ArrayUnique, IsAlpha, IsDate, IsDefined, IsIn, IsNumber, IsNumberString, IsObject, IsString, IsUUID, Matches } from 'class-validator';
import { ArrayOf } from '../../src';
import { Field, McpServer, Tool } from '../../src';
import { textOf } from '../support/probe';

/**
 * The rules of src/schema/validator-rules.ts whose `enforced` must stay false: class-validator checks
 * something reading does not, so each test sends a value only class-validator refuses and expects its
 * message. (Were the rule counted as enforced, class-validator would be skipped and the value accepted.)
 */
function serve(tools: object) {
  const server = new McpServer({ name: 'edges', version: '1' }).add(tools);
  return {
    listed: () => JSON.stringify(server.listTools()[0].inputSchema),
    call: async (value: unknown) => textOf(await server.callTool('take', { dto: value })),
  };
}

enum Level {
  Low = 1,
  High = 2,
}

describe('validator-rules: rules left to class-validator', () => {
  it("@Matches(string, 'g') runs class-validator's own non-u regex, which refuses one astral character for '.'", async () => {
    class Dto {
      @Matches('^.$', 'g') @Field() code!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"code":{"type":"string","pattern":"^.$"}},"required":["code"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ code: 'a' })).toBe('ok');
    expect(await call({ code: '\u{1F600}' })).toBe("Argument 'dto.code' is not valid. code must match ^.$ regular expression");
  });

  it('@Matches(/^.$/) without the u flag: class-validator refuses one astral character that Unicode-mode reading accepts', async () => {
    class Dto {
      @Matches(/^.$/) @Field() code!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call } = serve(new Tools());
    expect(await call({ code: 'a' })).toBe('ok');
    expect(await call({ code: '\u{1F600}' })).toBe("Argument 'dto.code' is not valid. code must match /^.$/ regular expression");
  });

  it('@Matches(/^.$/u) is read alone: both match in Unicode mode, so one astral character is accepted', async () => {
    class Dto {
      @Matches(/^.$/u) @Field() code!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call } = serve(new Tools());
    expect(await call({ code: '\u{1F600}' })).toBe('ok');
    expect(await call({ code: 'ab' })).toBe("Argument 'dto.code' is not valid. Expected text matching ^.$.");
  });

  it('@ArrayUnique(selector) refuses items that repeat by the selector (class-validator keeps the selector to itself)', async () => {
    class Item {
      @Field() id!: number;
      @Field() n!: string;
    }
    class Dto {
      @ArrayUnique((o: Item) => o.id) @Field(ArrayOf(Item)) items!: Item[];
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call } = serve(new Tools());
    expect(await call({ items: [{ id: 1, n: 'a' }, { id: 2, n: 'a' }] })).toBe('ok');
    expect(await call({ items: [{ id: 1, n: 'a' }, { id: 1, n: 'b' }] })).toBe("Argument 'dto.items' is not valid. All items's elements must be unique");
  });

  it("@IsUUID('4') refuses a version 1 UUID (the Uuid hint takes any version)", async () => {
    class Dto {
      @IsUUID('4') @Field() id!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"id":{"type":"string","format":"uuid"}},"required":["id"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ id: '0f8fad5b-d9cb-469f-a165-70867728950e' })).toBe('ok');
    expect(await call({ id: '0f8fad5b-d9cb-169f-a165-70867728950e' })).toBe("Argument 'dto.id' is not valid. id must be a UUID");
  });

  it('@IsNumber({ maxDecimalPlaces: 2 }) refuses 1.234', async () => {
    class Dto {
      @IsNumber({ maxDecimalPlaces: 2 }) @Field() x!: number;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ x: 1.23 })).toBe('ok');
    expect(await call({ x: 1.234 })).toBe("Argument 'dto.x' is not valid. x must be a number conforming to the specified constraints");
  });

  it('@IsNumber() on a bigint property: class-validator refuses the BigInt', async () => {
    class Dto {
      @IsNumber() @Field() n!: bigint;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"required":["n"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ n: 5 })).toBe("Argument 'dto.n' is not valid. n must be a number conforming to the specified constraints");
  });

  it('@IsDate() on a string property: class-validator refuses the text', async () => {
    class Dto {
      @IsDate() @Field() d!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"d":{"type":"string"}},"required":["d"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ d: '2020-01-01' })).toBe("Argument 'dto.d' is not valid. d must be a Date instance");
  });

  it('@IsString() on a Date property: class-validator refuses the Date reading makes', async () => {
    class Dto {
      @IsString() @Field() d!: Date;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"d":{"type":"string","format":"date-time"}},"required":["d"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ d: '2020-01-01T00:00:00Z' })).toBe("Argument 'dto.d' is not valid. d must be a string");
  });

  it('@IsString() on a numeric enum: the enum is read by member name', async () => {
    class Dto {
      @IsString() @Field({ type: Level }) level!: Level;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"level":{"type":"string","enum":["Low","High"]}},"required":["level"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ level: 'Low' })).toBe("Argument 'dto.level' is not valid. level must be a string");
  });

  it('@IsObject() on a string property: class-validator refuses the text', async () => {
    class Dto {
      @IsObject() @Field() o!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"o":{"type":"string"}},"required":["o"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ o: 'a' })).toBe("Argument 'dto.o' is not valid. o must be an object");
  });

  it('@IsDefined() on a nullable property: class-validator refuses null', async () => {
    class Dto {
      @IsDefined() @Field({ type: String, nullable: true }) v!: string | null;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"v":{"type":["string","null"]}},"required":["v"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ v: 'a' })).toBe('ok');
    expect(await call({ v: null })).toBe("Argument 'dto.v' is not valid. v should not be null or undefined");
  });

  it('@IsDefined() on an optional property: class-validator refuses it missing', async () => {
    class Dto {
      @IsDefined() @Field({ optional: true }) v?: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"v":{"type":"string"}},"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ v: 'a' })).toBe('ok');
    expect(await call({})).toBe("Argument 'dto.v' is not valid. v should not be null or undefined");
  });

  it("@IsAlpha('de-DE') is class-validator's: it lists no pattern and accepts umlauts", async () => {
    class Dto {
      @IsAlpha('de-DE') @Field() w!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"w":{"type":"string"}},"required":["w"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ w: 'Bär' })).toBe('ok');
    expect(await call({ w: 'B1' })).toBe("Argument 'dto.w' is not valid. w must contain only letters (a-zA-Z)");
  });

  it('@IsAlpha() is exact: listed as a pattern', async () => {
    class Dto {
      @IsAlpha() @Field() w!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"w":{"type":"string","pattern":"^[A-Za-z]+$"}},"required":["w"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ w: 'Bar' })).toBe('ok');
    expect(await call({ w: 'Bär' })).toBe("Argument 'dto.w' is not valid. Expected letters A to Z only.");
  });

  it("@IsNumberString({ no_symbols: true }) is class-validator's: it refuses a sign", async () => {
    class Dto {
      @IsNumberString({ no_symbols: true }) @Field() n!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"n":{"type":"string"}},"required":["n"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ n: '12' })).toBe('ok');
    expect(await call({ n: '-1' })).toBe("Argument 'dto.n' is not valid. n must be a number string");
  });

  it('@IsNumberString() is exact: listed as a pattern', async () => {
    class Dto {
      @IsNumberString() @Field() n!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"n":{"type":"string","pattern":"^[+-]?(?:[0-9]*[.])?[0-9]+$"}},"required":["n"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ n: '-1' })).toBe('ok');
    expect(await call({ n: 'x' })).toBe("Argument 'dto.n' is not valid. Expected a number as text.");
  });

  it('@IsString({ each: true }) on Dates: class-validator refuses each Date reading makes', async () => {
    class Dto {
      @IsString({ each: true }) @Field({ type: [Date] }) ds!: Date[];
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"ds":{"type":"array","items":{"type":"string","format":"date-time"}}},"required":["ds"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ ds: ['2020-01-01T00:00:00Z'] })).toBe("Argument 'dto.ds' is not valid. each value in ds must be a string");
  });
  it("@IsIn([]) is class-validator's: nothing is listed and every value is refused by its message", async () => {
    class Dto {
      @IsIn([]) @Field() v!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"v":{"type":"string"}},"required":["v"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ v: 'a' })).toBe("Argument 'dto.v' is not valid. v must be one of the following values: ");
  });

  it("@IsIn with a value JSON cannot compare (null) is class-validator's: nothing is listed", async () => {
    class Dto {
      @IsIn(['a', null]) @Field() v!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"v":{"type":"string"}},"required":["v"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ v: 'a' })).toBe('ok');
    expect(await call({ v: 'b' })).toBe("Argument 'dto.v' is not valid. v must be one of the following values: a, ");
  });

  it("@IsAlpha('en-US') is exact: listed as a pattern", async () => {
    class Dto {
      @IsAlpha('en-US') @Field() w!: string;
    }
    class Tools {
      @Tool() take(dto: Dto): string {
        return 'ok';
      }
    }
    const { call, listed } = serve(new Tools());
    expect(listed()).toBe(
      '{"type":"object","properties":{"dto":{"type":"object","properties":{"w":{"type":"string","pattern":"^[A-Za-z]+$"}},"required":["w"],"additionalProperties":false}},"required":["dto"],"additionalProperties":false}',
    );
    expect(await call({ w: 'Bar' })).toBe('ok');
    expect(await call({ w: 'Bär' })).toBe("Argument 'dto.w' is not valid. Expected letters A to Z only.");
  });
});
