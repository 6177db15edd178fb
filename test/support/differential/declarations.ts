import { Expose, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Contains,
  Equals,
  IsAlpha,
  IsAlphanumeric,
  IsArray,
  IsBase64,
  IsBoolean,
  IsDateString,
  IsDivisibleBy,
  IsEnum,
  IsHexColor,
  IsHexadecimal,
  IsIn,
  IsInt,
  IsIP,
  IsISO8601,
  IsMACAddress,
  IsNegative,
  IsNotEmpty,
  IsNotEmptyObject,
  IsNotIn,
  IsNumber,
  IsNumberString,
  IsObject,
  IsOptional,
  IsPort,
  IsPositive,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  NotContains,
  ValidateNested,
  validateSync,
} from 'class-validator';
import {
  ArrayOf,
  Bytes,
  Char,
  DateOnly,
  DictionaryOf,
  EmailAddress,
  Field,
  Int16,
  Int32,
  Int64,
  Int8,
  Json,
  JsonArray,
  JsonObject,
  MaxLength,
  MinLength,
  Nullable,
  Param,
  Range,
  RegularExpression,
  SetOf,
  StringLength,
  TimeOnly,
  TimeSpan,
  Tool,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Url,
  Uuid,
} from '../../../src';

/**
 * The declarations the differential tests judge (test/invoke/differential.test.ts, test/profiles/differential.test.ts):
 * one tool per row of the type table, records nested, inherited and renamed, with class-validator rules and
 * optional properties, collections and formats, and `Checked`, a record carrying every exact rule of
 * src/schema/records/validator-rules.ts.
 */

export enum Color {
  Red,
  Green,
  Blue,
}
export enum Size {
  Small = 'S',
  Large = 'L',
}

class Base {
  @Field() @StringLength(4, { min: 2 }) code!: string;
  @Field({ optional: true }) @Range(-1.5, 2.5) weight?: number;
}

class Part extends Base {
  @Expose({ name: 'part_no' }) @Field(Uint16) partNo!: number;
  @IsOptional() @Matches(/^[a-z]+\d?$/) @Length(1, 5) tag?: string;
  @Field({ type: Nullable(Color) }) color!: Color | null;
  @Field() rush: boolean = false;
}

class Line {
  @Type(() => Part) @Field() part!: Part;
  @IsInt() @Min(1) @Max(99) qty!: number;
  @Field({ type: [String], optional: true }) @ArrayUnique() @ArrayMinSize(1) @ArrayMaxSize(3) notes?: string[];
  @IsEnum(Size) size!: Size;
  @IsOptional() @IsUUID() ref?: string;
}

class Order {
  @Type(() => Line) @Field({ type: [Line] }) @ArrayUnique() lines!: Line[];
  @Field({ type: DictionaryOf(Nullable(Int16)), optional: true }) counts?: Record<string, number | null>;
  @Field({ type: Nullable(Line) }) extra!: Line | null;
}

/** Every exact rule of the table (src/schema/records/validator-rules.ts), as Nest DTOs write them. */
export class Checked {
  @IsOptional() @IsNumber() @IsPositive() positive?: number;
  @IsOptional() @IsNumber() @IsNegative() negative?: number;
  @IsOptional() @IsInt() @IsDivisibleBy(4) quarter?: number;
  @IsOptional() @IsIn(['red', 'green']) color?: string;
  @IsOptional() @IsEnum(Size) @IsIn([Size.Large]) size?: Size;
  @IsOptional() @IsString() @IsNotIn(['root', 'admin']) user?: string;
  @IsOptional() @IsBoolean() @Equals(true) consent?: boolean;
  @IsOptional() @IsString() @IsNotEmpty() title?: string;
  @IsOptional() @IsArray() @ArrayNotEmpty() @IsInt({ each: true }) @IsPositive({ each: true }) ids?: number[];
  @IsOptional() @IsObject() @IsNotEmptyObject() meta?: Record<string, unknown>;
  @IsOptional() @IsIP('4') v4?: string;
  @IsOptional() @IsIP('6') v6?: string;
  @IsOptional() @IsISO8601() when?: string;
  @IsOptional() @IsDateString() day?: string;
  @IsOptional() @IsHexColor() paint?: string;
  @IsOptional() @IsHexadecimal() hex?: string;
  @IsOptional() @IsAlpha() alpha?: string;
  @IsOptional() @IsAlphanumeric() alnum?: string;
  @IsOptional() @IsNumberString() digits?: string;
  @IsOptional() @IsPort() port?: string;
  @IsOptional() @IsMACAddress() mac?: string;
  @IsOptional() @IsBase64() b64?: string;
  @IsOptional() @Contains('a.') has?: string;
  @IsOptional() @NotContains('0x') lacks?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) @IsHexColor({ each: true }) paints?: string[];
}

/** The class-validator rules that refuse what reading built, by name: the instance the method receives. */
export function classValidatorRefusals(instance: object): string[] {
  return validateSync(instance, { forbidUnknownValues: false }).flatMap((e) => Object.keys(e.constraints ?? {}));
}

export class Tools {
  @Tool() checked(checked: Checked): string {
    return JSON.stringify(classValidatorRefusals(checked));
  }
  @Tool() flags(flag: boolean, @Param({ type: Nullable(Boolean) }) maybe: boolean | null): void {}
  @Tool() numbers(n: number, @Param() @Range(-1.5, 2.5) r: number): void {}
  @Tool() small(
    @Param({ type: Int8 }) a: number,
    @Param({ type: Uint8 }) b: number,
    @Param({ type: Int16 }) c: number,
    @Param({ type: Uint16 }) d: number,
  ): void {}
  @Tool() large(
    @Param({ type: Int32 }) a: number,
    @Param({ type: Uint32 }) b: number,
    @Param({ type: Int64 }) c: number,
    @Param({ type: Uint64 }) d: number,
  ): void {}
  @Tool() big(b: bigint): void {}
  @Tool() text(s: string, @Param({ type: Char }) c: string): void {}
  @Tool() lengths(
    @Param() @StringLength(3, { min: 2 }) a: string,
    @Param() @MinLength(1) b: string,
    @Param() @MaxLength(2) c: string,
  ): void {}
  @Tool() patterns(@Param() @RegularExpression('^[a-z]+\\d?$') a: string, @Param() @RegularExpression('^\\p{L}{1,3}$') b: string): void {}
  @Tool() ids(@Param({ type: Uuid }) id: string, @Param({ type: Nullable(Uuid) }) other: string | null): void {}
  @Tool() dates(when: Date, @Param({ type: DateOnly }) day: string): void {}
  @Tool() times(@Param({ type: TimeOnly }) at: string, @Param({ type: TimeSpan }) span: number): void {}
  @Tool() links(where: URL, @Param() @Url() link: string, @Param() @EmailAddress() mail: string): void {}
  @Tool() bytes(@Param({ type: Bytes }) data: Uint8Array, blob: Buffer): void {}
  @Tool() enums(
    @Param({ type: Color }) color: Color,
    @Param({ type: Size }) size: Size,
    @Param({ type: Nullable(Size) }) maybe: Size | null,
  ): void {}
  @Tool() lists(
    @Param({ type: ArrayOf(Int8) }) @MinLength(1) @MaxLength(3) a: number[],
    @Param({ type: [Nullable(String)] }) b: (string | null)[],
  ): void {}
  @Tool() sets(@Param({ type: SetOf(Uuid) }) ids: Set<string>, @Param({ type: SetOf(Json) }) any: Set<unknown>): void {}
  @Tool() maps(
    @Param({ type: DictionaryOf(Int8) }) d: Record<string, number>,
    @Param({ type: DictionaryOf(Json) }) m: Map<string, unknown>,
  ): void {}
  @Tool() json(
    @Param({ type: Json }) any: unknown,
    @Param({ type: JsonObject }) o: object,
    @Param({ type: JsonArray }) a: unknown[],
  ): void {}
  @Tool() defaults(@Param({ type: Int8 }) n: number = 3, s: string = 'x', @Param({ type: Nullable(Color) }) c: Color | null = null): void {}
  @Tool() order(order: Order): void {}
  @Tool() parts(@Param({ type: [Part] }) parts: Part[], part: Part): void {}
}

abstract class Shape {}

class Circle extends Shape {
  @IsNumber() @IsPositive() radius!: number;
  @Field({ type: Nullable(String), optional: true }) label?: string | null;
}

class Square extends Shape {
  @IsInt() @Min(1) side!: number;
  @Field({ optional: true }) @Range(0, 1) round?: number;
}

class Drawing {
  @IsString() title!: string;
  @ValidateNested()
  @Type(() => Shape, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'circle', value: Circle },
        { name: 'square', value: Square },
      ],
    },
    keepDiscriminatorProperty: true,
  })
  shape!: Circle | Square;
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Shape, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'circle', value: Circle },
        { name: 'square', value: Square },
      ],
    },
    keepDiscriminatorProperty: true,
  })
  more?: (Circle | Square)[] | null;
}

/**
 * More of what a listing profile writes its own way (test/profiles/differential.test.ts): discriminated subtypes
 * (`anyOf` under both profiles), optional parameters of record, enum, list and set types (nullable and required
 * under 'openai-strict'), free JSON that admits `null`.
 */
export class ProfileTools {
  @Tool() draw(drawing: Drawing): void {}
  @Tool() optionals(
    @Param({ type: Line, optional: true }) line: Line | undefined,
    @Param({ type: Size, optional: true }) size: Size | undefined,
    @Param({ type: [Part], optional: true }) parts: Part[] | undefined,
    @Param({ type: SetOf(Int8), optional: true }) set: Set<number> | undefined,
    @Param({ type: Nullable(Json) }) j: unknown,
    @Param({ type: Nullable(Part), optional: true }) maybe: Part | null | undefined,
  ): void {}
}
