import 'reflect-metadata';
import { BadRequestException, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
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

/**
 * The app's pipe is the judge: for each DTO, each input and each option set, the tool's verdict (accepted, or an
 * argument error) is Nest's `ValidationPipe`'s under the same options (a value, or a `BadRequestException`).
 * The only disagreements allowed are the deliberate differences listed below, each with its reason.
 */

@ValidatorConstraint({ name: 'publicUrl', async: true })
class PublicUrl implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    return typeof value === 'string' && value.startsWith('https://') && !value.startsWith('https://10.');
  }
  defaultMessage(): string {
    return 'url must be a public https URL';
  }
}

class Point {
  @IsInt() @Min(0) x!: number;
  @IsOptional() @IsString() label?: string;
}

class Person {
  @IsString() @MinLength(2) name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
  @IsEmail() email!: string;
  @IsOptional() @IsString() @Matches(/^[a-z]+$/u) nick?: string;
}

class Notify {
  @IsBoolean() sendEmail!: boolean;
  @IsDefined() @IsEmail() @ValidateIf((o: Notify) => o.sendEmail) email?: string;
}

class Route {
  @ValidateNested() @Type(() => Point) from!: Point;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Point) stops?: Point[];
  @ValidateNested({ each: true }) @Type(() => Point) to!: Point;
}

class Loose {
  @IsObject() @Type(() => Point) at!: Point;
}

/** A nested DTO without `@Type`: class-transformer leaves a plain object, in which class-validator finds no rule. */
class Bare {
  @ValidateNested() at!: Point;
}

class Page {
  @IsOptional() @Transform(({ value }) => parseInt(value as string, 10)) @IsInt() @Min(1) size?: number;
}

class Fetch {
  @IsString() @Validate(PublicUrl) url!: string;
  @IsDefined() @IsString() id!: string;
}

const point = { x: 1, label: 'a' };
const cases: {
  readonly dto: new () => object;
  readonly valid: Record<string, unknown>;
  readonly more: readonly Record<string, unknown>[];
}[] = [
  {
    dto: Person,
    valid: { name: 'Ada', age: 36, email: 'ada@example.com', nick: 'ada' },
    more: [
      { name: 'A', age: 1.5, email: 'a@b.c', nick: 'ADA' },
      { name: 5, age: 200, email: 'nope' },
      { name: 'Ada', age: 1, email: 'a@example.com', nick: null },
    ],
  },
  {
    dto: Notify,
    valid: { sendEmail: true, email: 'ada@example.com' },
    more: [
      { sendEmail: false },
      { sendEmail: true },
      { sendEmail: false, email: null },
      { sendEmail: true, email: 'x' },
      { sendEmail: false, email: 5 },
    ],
  },
  {
    dto: Route,
    valid: { from: point, stops: [point, { x: 2 }], to: { x: 3 } },
    more: [
      { from: { x: -1 }, to: { x: 1 } },
      { from: point, to: [point] },
      { from: point, to: point, stops: [{ x: 'a' }] },
      { from: point, to: { x: 1, extra: 1 } },
    ],
  },
  {
    dto: Loose,
    valid: { at: { x: -3, y: 1 } },
    more: [{ at: 'text' }, { at: { x: 1 } }, { at: null }],
  },
  {
    dto: Bare,
    valid: { at: { x: 1 } },
    more: [{ at: { x: -1, label: 2 } }, { at: {} }, { at: [] }, { at: [{ x: 1 }] }, { at: { x: 1, extra: 1 } }],
  },
  {
    dto: Page,
    valid: { size: 5 },
    more: [{ size: null }, { size: 0 }, { size: '5' }, {}],
  },
  {
    dto: Fetch,
    valid: { url: 'https://example.com/', id: 'a' },
    more: [
      { url: 'http://10.0.0.7/', id: 'a' },
      { url: 'https://10.0.0.7/', id: null },
    ],
  },
];

/** Every input of a case: the valid one, each property left out, `null`, wrongly typed, an unknown one added, and the case's own. */
function inputs(valid: Record<string, unknown>, more: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [valid, { ...valid, unknown: 1 }, ...more];
  for (const key of Object.keys(valid)) {
    const { [key]: _, ...without } = valid;
    out.push(without, { ...valid, [key]: null }, { ...valid, [key]: typeof valid[key] === 'string' ? 1 : 'text' });
  }
  return out;
}

const optionSets: readonly ValidationPipeOptions[] = [
  { whitelist: true, forbidNonWhitelisted: true },
  { whitelist: true, forbidNonWhitelisted: true, transform: true },
  { whitelist: true },
  { whitelist: false },
  { whitelist: true, forbidNonWhitelisted: true, skipMissingProperties: true },
  { whitelist: false, skipMissingProperties: true },
];

/**
 * The deliberate differences (docs/listing-contract.md), by DTO and input: the tool refuses what the pipe accepts.
 * - `@ValidateIf` keeps the declared type: the listing states what is always true of the property (its type, and
 *   `null`), not "anything when the condition fails".
 * - The listing states the JSON value before `@Transform`: `"5"` is no integer, though `parseInt` makes it one.
 * - `@ValidateNested()`, with or without `{ each: true }`, on a property declared as one class is one object: the
 *   pipe also takes an array of them (class-validator validates each element of any array), which no declared
 *   type says.
 */
function deliberate(dto: Function, input: Record<string, unknown>): string | undefined {
  if (dto === Notify && input.sendEmail === false && input.email !== undefined && input.email !== null && typeof input.email !== 'string')
    return '@ValidateIf keeps the declared type';
  if (dto === Page && typeof input.size === 'string') return 'the listing states the JSON value before @Transform';
  if (dto === Route && Array.isArray(input.to)) return '@ValidateNested() on one class is one object';
  if (dto === Bare && Array.isArray(input.at)) return '@ValidateNested() on one class is one object';
  return undefined;
}

function asOurs(options: ValidationPipeOptions): ValidationOptions {
  return {
    whitelist: options.whitelist === true,
    forbidNonWhitelisted: options.forbidNonWhitelisted === true,
    transform: options.transform === true,
    skipMissingProperties: options.skipMissingProperties === true,
  };
}

async function pipeVerdict(pipe: ValidationPipe, dto: Function, value: unknown): Promise<'accepted' | 'refused'> {
  try {
    // A JSON body parsed in the app's own realm, as express's parser gives it: `structuredClone` would make the
    // objects of Node's realm, not the test's, and class-validator's `instanceof Object` refuses those where
    // class-transformer leaves a plain object (a nested DTO without `@Type`).
    await pipe.transform(JSON.parse(JSON.stringify(value)), { type: 'body', metatype: dto as new () => object });
    return 'accepted';
  } catch (error) {
    if (error instanceof BadRequestException) {
      return 'refused';
    }
    throw error;
  }
}

describe("the app's pipe is the judge", () => {
  it.each(optionSets.map((o) => [JSON.stringify(o), o] as const))(
    'agrees with ValidationPipe(%s) on every DTO and input',
    async (_name, options) => {
      const disagreements: string[] = [];
      const exercised = new Set<string>();
      let compared = 0;
      for (const { dto, valid, more } of cases) {
        class Tools {
          @Tool() take(@Param({ name: 'dto', type: dto }) _value: object): string {
            return 'ok';
          }
        }
        const server = new McpServer({ name: 'judge', version: '1' }, { validation: asOurs(options) }).add(new Tools());
        const pipe = new ValidationPipe(options);
        for (const input of inputs(valid, more)) {
          const ours = textOf(await server.callTool('take', { dto: structuredClone(input) })) === 'ok' ? 'accepted' : 'refused';
          const theirs = await pipeVerdict(pipe, dto, input);
          compared++;
          if (ours === theirs) continue;
          const reason = deliberate(dto, input);
          if (reason !== undefined && ours === 'refused') exercised.add(reason);
          else disagreements.push(`${dto.name} ${JSON.stringify(input)}: tool ${ours}, pipe ${theirs}`);
        }
      }
      expect(disagreements).toEqual([]);
      expect(compared).toBe(82);
      // Each deliberate difference is met, so that none of them hides a disagreement of another kind.
      expect([...exercised].sort()).toEqual([
        '@ValidateIf keeps the declared type',
        '@ValidateNested() on one class is one object',
        'the listing states the JSON value before @Transform',
      ]);
    },
  );
});
