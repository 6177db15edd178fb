import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsEmail,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length as CvLength,
  Matches,
  Max,
  MaxLength as CvMaxLength,
  Min,
  MinLength as CvMinLength,
} from 'class-validator';
import { Description, Field, Int32, Nullable, Range, Tool, DictionaryOf } from '../../src';
import { inputOf, listingOf } from '../support/listing';

enum Status {
  Open,
  Closed,
}

class Base {
  @Field() id!: string;
  @Description('When created') @Field() created!: Date;
}
class Derived extends Base {
  @Field(Int32) count!: number;
  @IsString() label!: string;
}
class Take {
  @Tool() take(v: Derived): void {}
}

describe('records (DESIGN.md section 5)', () => {
  it('lists base class properties first, then declaration order, including class-validator-only properties', () => {
    expect(JSON.stringify(JSON.parse(inputOf(new Take())).properties.v)).toBe(
      '{"type":"object","properties":{"id":{"type":"string"},"created":{"type":"string","format":"date-time","description":"When created"},' +
        '"count":{"type":"integer","minimum":-2147483648,"maximum":2147483647},"label":{"type":"string"}},' +
        '"required":["id","created","count","label"],"additionalProperties":false}',
    );
  });

  it('renames with @Expose({ name }) and removes with @Exclude()', () => {
    class Renamed {
      @Expose({ name: 'first_name' }) @Field() firstName!: string;
      @Exclude() @Field() secret!: string;
      @Expose() plain!: string;
    }
    class T {
      @Tool() t(v: Renamed): void {}
    }
    expect(JSON.stringify(JSON.parse(inputOf(new T())).properties.v)).toBe(
      '{"type":"object","properties":{"first_name":{"type":"string"},"plain":{"type":"string"}},"required":["first_name","plain"],"additionalProperties":false}',
    );
  });

  it('keeps declaration order when libraries interleave', () => {
    class Mixed {
      @IsString() a!: string;
      @Field() b!: string;
      @Expose() c!: string;
      @Min(1) @Field() d!: number;
      @IsOptional() @IsString() e?: string;
      @Type(() => Date) f!: Date;
    }
    class T {
      @Tool() t(v: Mixed): void {}
    }
    expect(Object.keys(JSON.parse(inputOf(new T())).properties.v.properties)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('maps class-validator decorators to keywords', () => {
    class Validated {
      @IsInt() @Min(1) @Max(1000) qty!: number;
      @CvMinLength(2) @CvMaxLength(10) name!: string;
      @CvLength(3, 3) code!: string;
      @Matches(/^[A-Z]+$/) upper!: string;
      @IsEmail() email!: string;
      @IsUrl() site!: string;
      @IsUUID() id!: string;
      @IsEnum(Status) status!: Status;
      @ArrayMinSize(1) @ArrayMaxSize(3) @ArrayUnique() @IsString({ each: true }) @Type(() => String) tags!: string[];
      @IsInt({ each: true }) @Min(0, { each: true }) scores!: number[];
      @IsOptional() @IsString() note?: string;
    }
    class T {
      @Tool() t(v: Validated): void {}
    }
    expect(JSON.stringify(JSON.parse(inputOf(new T())).properties.v)).toBe(
      '{"type":"object","properties":{' +
        '"qty":{"type":"integer","minimum":1,"maximum":1000},' +
        '"name":{"type":"string","minLength":2,"maxLength":10},' +
        '"code":{"type":"string","minLength":3,"maxLength":3},' +
        '"upper":{"type":"string","pattern":"^[A-Z]+$"},' +
        '"email":{"type":"string","format":"email"},' +
        '"site":{"type":"string","format":"uri"},' +
        '"id":{"type":"string","format":"uuid"},' +
        '"status":{"type":"string","enum":["Open","Closed"]},' +
        '"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true},' +
        '"scores":{"type":"array","items":{"type":"integer","minimum":0,"maximum":9007199254740991}},' +
        '"note":{"type":["string","null"]}},' +
        '"required":["qty","name","code","upper","email","site","id","status","tags","scores"],"additionalProperties":false}',
    );
  });

  it('makes initialised properties optional and writes literal initialisers as default', () => {
    class Defaults {
      @Field() days: number = 3;
      @Field() name: string = 'x';
      @Field({ type: [String] }) tags: string[] = [];
      @Field({ type: Status }) status: Status = Status.Closed;
      @Field({ optional: true }) maybe?: string;
      @Field({ default: true }) on!: boolean;
      @Field() needed!: string;
    }
    class T {
      @Tool() t(v: Defaults): void {}
    }
    expect(JSON.stringify(JSON.parse(inputOf(new T())).properties.v)).toBe(
      '{"type":"object","properties":{"days":{"type":"number","default":3},"name":{"type":"string","default":"x"},' +
        '"tags":{"type":"array","items":{"type":"string"}},"status":{"type":"string","enum":["Open","Closed"],"default":"Closed"},' +
        '"maybe":{"type":"string"},"on":{"type":"boolean","default":true},"needed":{"type":"string"}},' +
        '"required":["needed"],"additionalProperties":false}',
    );
  });

  it('does not count initialisers of a class that needs constructor arguments', () => {
    class NeedsArgs {
      @Field() days: number = 3;
      constructor(readonly seed: number) {}
    }
    class T {
      @Tool() t(v: NeedsArgs): void {}
    }
    expect(JSON.stringify(JSON.parse(inputOf(new T())).properties.v)).toBe(
      '{"type":"object","properties":{"days":{"type":"number"}},"required":["days"],"additionalProperties":false}',
    );
  });

  it('nests records, arrays of records (through @Type or a hint) and nullable records', () => {
    class Line {
      @Field() sku!: string;
      @Field(Int32) @Range(1, 1000) qty!: number;
    }
    class Order {
      @Type(() => Line) @Field() lines!: Line[];
      @Field({ type: Nullable(Line) }) extra!: Line | null;
      @Field(DictionaryOf(Line)) byId!: Record<string, Line>;
    }
    class T {
      @Tool() t(order: Order): Order {
        return order;
      }
    }
    const line =
      '{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer","minimum":1,"maximum":1000}},"required":["sku","qty"],"additionalProperties":false}';
    const nullableLine = line.replace('"type":"object"', '"type":["object","null"]');
    const order =
      `{"type":"object","properties":{"lines":{"type":"array","items":${line}},"extra":${nullableLine},` +
      `"byId":{"type":"object","additionalProperties":${line}}},"required":["lines","extra","byId"],"additionalProperties":false}`;
    expect(listingOf(new T())).toBe(
      `{"name":"t","inputSchema":{"type":"object","properties":{"order":${order}},"required":["order"],"additionalProperties":false},"outputSchema":${order}}`,
    );
  });

  it('writes the class description on the record when the usage has none', () => {
    @Description('A point')
    class Pt {
      @Field() x!: number;
    }
    class T {
      @Tool() t(p: Pt, @Description('Where') q: Pt): void {}
    }
    const props = JSON.parse(inputOf(new T())).properties;
    expect(JSON.stringify(props.p)).toBe(
      '{"type":"object","description":"A point","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}',
    );
    expect(JSON.stringify(props.q)).toBe(
      '{"type":"object","description":"Where","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}',
    );
  });

  it('applies @Exclude({ toPlainOnly }) to the output schema only', () => {
    class Account {
      @Field() name!: string;
      @Exclude({ toPlainOnly: true }) @Field() password!: string;
      @Transform(({ value }) => String(value).trim()) @Field() email!: string;
    }
    class T {
      @Tool() t(a: Account): Account {
        return a;
      }
    }
    const listing = JSON.parse(listingOf(new T()));
    expect(Object.keys(listing.inputSchema.properties.a.properties)).toEqual(['name', 'password', 'email']);
    expect(Object.keys(listing.outputSchema.properties)).toEqual(['name', 'email']);
  });
});
