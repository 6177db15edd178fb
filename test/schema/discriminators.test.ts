import { plainToInstance, Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  validate,
  type ValidatorConstraintInterface,
} from 'class-validator';
import Ajv2020 from 'ajv/dist/2020';
import { McpServer, Tool } from '../../src';
import { forceRecordStrategy } from '../../src/invoke/reading/record-reader';
import { connected } from '../server/support';

/**
 * class-transformer's discriminated `@Type(() => Base, { discriminator })`: listed as `oneOf` of the
 * subtypes' closed objects, each with its discriminator as a `const`, and read into the subtype
 * class-transformer builds (`plainToInstance` is the judge of what the method receives).
 */

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage(): string {
    return 'side must be even';
  }
}

abstract class Shape {}

class Circle extends Shape {
  @IsNumber() @IsPositive() radius!: number;
}

class Square extends Shape {
  @IsInt() @Min(1) @Validate(Even) side!: number;
  @IsOptional() @IsString() label?: string;
}

const SHAPES = {
  property: 'kind',
  subTypes: [
    { name: 'circle', value: Circle },
    { name: 'square', value: Square },
  ],
};

/** A base that declares the discriminator itself, and keeps it on the instance. */
class Animal {
  @IsString() kind!: string;
  @IsString() name!: string;
}

class Dog extends Animal {
  @IsBoolean() goodBoy!: boolean;
}

class Cat extends Animal {
  @IsInt() @Min(0) lives!: number;
}

const ANIMALS = {
  property: 'kind',
  subTypes: [
    { name: 'dog', value: Dog },
    { name: 'cat', value: Cat },
  ],
};

class Drawing {
  @IsString() title!: string;
  @IsDefined() @ValidateNested() @Type(() => Shape, { discriminator: SHAPES, keepDiscriminatorProperty: true }) shape!: Circle | Square;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Shape, { discriminator: SHAPES }) extras?: Shape[];
}

class Shelter {
  @IsDefined() @ValidateNested() @Type(() => Animal, { discriminator: ANIMALS, keepDiscriminatorProperty: true }) resident!: Animal;
  @IsOptional() @ValidateNested() @Type(() => Animal, { discriminator: ANIMALS, keepDiscriminatorProperty: true }) visitor?: Animal | null;
}

let received: unknown[] = [];

class Tools {
  @Tool() draw(drawing: Drawing): string {
    received.push(drawing);
    return 'drawn';
  }
  @Tool() adopt(shelter: Shelter): string {
    received.push(shelter);
    return 'adopted';
  }
  @Tool() biggest(drawing: Drawing): Drawing {
    return drawing;
  }
}

const CIRCLE =
  '{"type":"object","properties":{"kind":{"type":"string","const":"circle"},' +
  '"radius":{"type":"number","exclusiveMinimum":0}},"required":["kind","radius"],"additionalProperties":false}';
const SQUARE =
  '{"type":"object","properties":{"kind":{"type":"string","const":"square"},' +
  '"side":{"type":"integer","minimum":1,"maximum":9007199254740991},"label":{"type":["string","null"]}},' +
  '"required":["kind","side"],"additionalProperties":false}';
const DRAWING =
  '{"type":"object","properties":{"title":{"type":"string"},' +
  `"shape":{"oneOf":[${CIRCLE},${SQUARE}]},` +
  `"extras":{"type":["array","null"],"items":{"oneOf":[${CIRCLE},${SQUARE}]}}},` +
  '"required":["title","shape"],"additionalProperties":false}';
const DOG =
  '{"type":"object","properties":{"kind":{"type":"string","const":"dog"},"name":{"type":"string"},"goodBoy":{"type":"boolean"}},' +
  '"required":["kind","name","goodBoy"],"additionalProperties":false}';
const CAT =
  '{"type":"object","properties":{"kind":{"type":"string","const":"cat"},"name":{"type":"string"},' +
  '"lives":{"type":"integer","minimum":0,"maximum":9007199254740991}},"required":["kind","name","lives"],"additionalProperties":false}';
const SHELTER =
  `{"type":"object","properties":{"resident":{"oneOf":[${DOG},${CAT}]},"visitor":{"oneOf":[${DOG},${CAT},{"type":"null"}]}},` +
  '"required":["resident"],"additionalProperties":false}';

const server = new McpServer({ name: 'discriminators', version: '1' }).add(new Tools());

async function client() {
  return (await connected(server, 'legacy')).client;
}

function textOf(result: unknown): string {
  const r = result as { content: { text: string }[]; isError?: boolean };
  return `${r.isError ? 'error' : 'ok'}: ${r.content[0].text}`;
}

/** A fresh copy of the plain input (class-transformer deletes a discriminator it does not keep); not structuredClone, whose objects come from another realm under Jest, which class-transformer does not take for objects. */
function copy<T>(plain: T): T {
  return JSON.parse(JSON.stringify(plain)) as T;
}

async function judged(dto: new () => object, plain: object): Promise<string> {
  const errors = await validate(plainToInstance(dto, copy(plain)), { forbidUnknownValues: false });
  return errors.length === 0 ? 'accepted' : 'refused';
}

beforeEach(() => {
  received = [];
});

describe('a discriminated @Type is listed as oneOf of its subtypes', () => {
  it('lists each subtype as a closed object with its discriminator as const, one property and arrays of them', async () => {
    const c = await client();
    const { tools } = await c.listTools();
    await c.close();
    const schemas = new Map(tools.map((t) => [t.name, t.inputSchema as { properties: Record<string, unknown> }]));
    expect(JSON.stringify(schemas.get('draw')!.properties.drawing)).toBe(DRAWING);
    expect(JSON.stringify(schemas.get('adopt')!.properties.shelter)).toBe(SHELTER);
  });

  it('lists a schema that accepts each subtype and refuses the others, null only where nullable', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    const drawing = ajv.compile(JSON.parse(DRAWING));
    const shelter = ajv.compile(JSON.parse(SHELTER));
    expect(drawing({ title: 't', shape: { kind: 'circle', radius: 1 }, extras: [{ kind: 'square', side: 2 }] })).toBe(true);
    expect(drawing({ title: 't', shape: { kind: 'square', side: 2 } })).toBe(true);
    expect(drawing({ title: 't', shape: { kind: 'triangle', radius: 1 } })).toBe(false);
    expect(drawing({ title: 't', shape: { radius: 1 } })).toBe(false);
    expect(drawing({ title: 't', shape: { kind: 'circle', radius: 1, side: 2 } })).toBe(false);
    expect(drawing({ title: 't', shape: null })).toBe(false);
    expect(shelter({ resident: { kind: 'cat', name: 'Tom', lives: 9 }, visitor: null })).toBe(true);
    expect(shelter({ resident: null })).toBe(false);
  });

  it('writes the result with its discriminator, and its output schema', () => {
    const tool = server.listTools().find((t) => t.name === 'biggest')!;
    expect(JSON.stringify(tool.outputSchema)).toBe(DRAWING);
  });
});

describe('a discriminated @Type is read into the subtype class-transformer builds', () => {
  it('reads a circle into a Circle that keeps its discriminator', async () => {
    const plain = { title: 't', shape: { kind: 'circle', radius: 2 } };
    const c = await client();
    expect(textOf(await c.callTool({ name: 'draw', arguments: { drawing: plain } }))).toBe('ok: drawn');
    await c.close();
    const drawing = received[0] as Drawing;
    const judge = plainToInstance(Drawing, copy(plain));
    expect(drawing).toBeInstanceOf(Drawing);
    expect(drawing.shape).toBeInstanceOf(Circle);
    expect(judge.shape).toBeInstanceOf(Circle);
    expect(JSON.stringify(drawing)).toBe('{"title":"t","shape":{"radius":2,"kind":"circle"}}');
    expect(JSON.stringify(drawing)).toBe(JSON.stringify(judge));
  });

  it('reads a square into a Square, and array items into their subtypes without the discriminator', async () => {
    const plain = {
      title: 't',
      shape: { kind: 'square', side: 4, label: 'a' },
      extras: [
        { kind: 'circle', radius: 1 },
        { kind: 'square', side: 2 },
      ],
    };
    const c = await client();
    expect(textOf(await c.callTool({ name: 'draw', arguments: { drawing: plain } }))).toBe('ok: drawn');
    await c.close();
    const drawing = received[0] as Drawing;
    const judge = plainToInstance(Drawing, copy(plain));
    expect(drawing.shape).toBeInstanceOf(Square);
    expect(drawing.extras![0]).toBeInstanceOf(Circle);
    expect(drawing.extras![1]).toBeInstanceOf(Square);
    expect(judge.extras![0]).toBeInstanceOf(Circle);
    expect(judge.extras![1]).toBeInstanceOf(Square);
    expect(Object.keys(drawing.extras![0])).toEqual(['radius']);
    expect(JSON.stringify(drawing)).toBe('{"title":"t","shape":{"side":4,"label":"a","kind":"square"},"extras":[{"radius":1},{"side":2}]}');
    expect(JSON.stringify(drawing)).toBe(JSON.stringify(judge));
  });

  it.each([
    ['dog', { resident: { kind: 'dog', name: 'Rex', goodBoy: true } }, Dog],
    ['cat', { resident: { kind: 'cat', name: 'Tom', lives: 9 }, visitor: null }, Cat],
  ] as const)('reads a %s declared on the base class into its subtype', async (_name, plain, subtype) => {
    const c = await client();
    expect(textOf(await c.callTool({ name: 'adopt', arguments: { shelter: plain } }))).toBe('ok: adopted');
    await c.close();
    const shelter = received[0] as Shelter;
    expect(shelter.resident).toBeInstanceOf(subtype);
    expect(plainToInstance(Shelter, copy(plain)).resident).toBeInstanceOf(subtype);
    expect(JSON.stringify(shelter)).toBe(JSON.stringify(plain));
    expect(JSON.stringify(shelter)).toBe(JSON.stringify(plainToInstance(Shelter, copy(plain))));
    expect(await judged(Shelter, plain)).toBe('accepted');
  });

  const refused: [string, object, string, string][] = [
    [
      'an unknown discriminator',
      { title: 't', shape: { kind: 'triangle', radius: 2 } },
      'error: Argument \'drawing.shape.kind\' is not valid. Expected one of: "circle", "square".',
      // class-transformer falls back to the abstract base, which has no rules: the listing offers no base.
      'accepted',
    ],
    [
      'a missing discriminator',
      { title: 't', shape: { radius: 2 } },
      'error: Argument \'drawing.shape.kind\' is not valid. Expected one of: "circle", "square".',
      'accepted',
    ],
    [
      'a discriminator that is not a string',
      { title: 't', shape: { kind: 1, radius: 2 } },
      'error: Argument \'drawing.shape.kind\' is not valid. Expected one of: "circle", "square".',
      'accepted',
    ],
    [
      'a property of the other subtype',
      { title: 't', shape: { kind: 'circle', radius: 2, side: 3 } },
      "error: Argument 'drawing.shape.side' is not valid. There is no such property.",
      'accepted',
    ],
    [
      'a rule the listing states',
      { title: 't', shape: { kind: 'circle', radius: 0 } },
      "error: Argument 'drawing.shape.radius' is not valid. Expected a number greater than 0, such as 1.",
      'refused',
    ],
    [
      'a rule only class-validator runs',
      { title: 't', shape: { kind: 'square', side: 3 } },
      "error: Argument 'drawing.shape.side' is not valid. side must be even",
      'refused',
    ],
    [
      'an array item of an unknown subtype',
      { title: 't', shape: { kind: 'circle', radius: 1 }, extras: [{ kind: 'circle', radius: 1 }, { kind: 'hexagon' }] },
      'error: Argument \'drawing.extras[1].kind\' is not valid. Expected one of: "circle", "square".',
      'accepted',
    ],
    [
      'an array item failing its subtype rule',
      { title: 't', shape: { kind: 'circle', radius: 1 }, extras: [{ kind: 'square', side: 5 }] },
      "error: Argument 'drawing.extras[0].side' is not valid. side must be even",
      'refused',
    ],
    [
      'not an object',
      { title: 't', shape: 'circle' },
      'error: Argument \'drawing.shape\' is not valid. Expected an object, such as {"kind":"circle","radius":1}, got a string.',
      'refused',
    ],
  ];
  it.each(refused)('refuses %s', async (_name, plain, message, classValidator) => {
    expect(await judged(Drawing, plain)).toBe(classValidator);
    const c = await client();
    expect(textOf(await c.callTool({ name: 'draw', arguments: { drawing: plain } }))).toBe(message);
    await c.close();
    expect(received).toEqual([]);
  });

  it('refuses a cat with a dog property, as the closed subtype', async () => {
    const c = await client();
    const result = await c.callTool({
      name: 'adopt',
      arguments: { shelter: { resident: { kind: 'cat', name: 'Tom', lives: 9, goodBoy: false } } },
    });
    expect(textOf(result)).toBe("error: Argument 'shelter.resident.goodBoy' is not valid. There is no such property.");
    await c.close();
  });
});

describe('where code generation is forbidden', () => {
  afterEach(() => forceRecordStrategy(undefined));

  it('the interpreted reader keeps and drops the discriminator as the generated one does', async () => {
    forceRecordStrategy('interpreted');
    const interpreted = new McpServer({ name: 'interpreted', version: '1' }).add(new Tools());
    const plain = { title: 't', shape: { kind: 'square', side: 4 }, extras: [{ kind: 'circle', radius: 1 }] };
    expect(textOf(await interpreted.callTool('draw', { drawing: plain }))).toBe('ok: drawn');
    const drawing = received[0] as Drawing;
    expect(drawing.shape).toBeInstanceOf(Square);
    expect(drawing.extras![0]).toBeInstanceOf(Circle);
    expect(JSON.stringify(drawing)).toBe('{"title":"t","shape":{"side":4,"kind":"square"},"extras":[{"radius":1}]}');
    expect(JSON.stringify(drawing)).toBe(JSON.stringify(plainToInstance(Drawing, copy(plain))));
  });
});

describe('a discriminated result', () => {
  it('is written with the subtype name as its discriminator, as instanceToPlain writes it', async () => {
    const c = await client();
    const result = await c.callTool({
      name: 'biggest',
      arguments: { drawing: { title: 't', shape: { kind: 'square', side: 2 }, extras: [{ kind: 'circle', radius: 1 }] } },
    });
    await c.close();
    expect(JSON.stringify(result.structuredContent)).toBe(
      '{"title":"t","shape":{"kind":"square","side":2},"extras":[{"kind":"circle","radius":1}]}',
    );
  });
});
