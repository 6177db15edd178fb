import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Transform } from 'class-transformer';
import {
  ArrayUnique,
  IsEmail,
  IsNotEmptyObject,
  IsObject,
  IsOptional,
  Matches,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  Bytes,
  DefinitionError,
  DictionaryOf,
  Field,
  Int32,
  Json,
  McpServer,
  Param,
  RegularExpression,
  SetOf,
  StringLength,
  Tool,
  TOOL_FAILED_CHANNEL,
} from '../../src';
import { probe, textOf } from '../support/probe';

/**
 * The listing is the contract (DESIGN.md section 6): each behaviour here was a disagreement between what
 * the listed inputSchema accepts (ajv 2020-12 + ajv-formats) and what reading accepted.
 */

describe('string lengths count code points, both bounds', () => {
  class Named {
    @Field() @StringLength(5, { min: 2 }) name!: string;
  }
  class Tools {
    @Tool() name(@Param() @StringLength(5, { min: 2 }) name: string): string {
      return name;
    }
    @Tool() named(name: string): Named {
      return Object.assign(new Named(), { name });
    }
  }
  const server = new McpServer({ name: 't', version: '1' }).add(new Tools());

  it('refuses one code point under a minimum of two, though it is two UTF-16 units', async () => {
    const result = await server.callTool('name', { name: '😀' });
    expect(textOf(result)).toBe('Argument \'name\' is not valid. Expected 2 to 5 characters, such as "text".');
  });

  it('accepts five code points that are ten UTF-16 units', async () => {
    expect(textOf(await server.callTool('name', { name: '😀😀😀😀😀' }))).toBe('😀😀😀😀😀');
  });

  it('masks a result that breaks its own output schema on the minimum', async () => {
    const result = await server.callTool('named', { name: '😀' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
  });
});

describe('omitted optional record properties are not validated', () => {
  class Contact {
    @Field() name!: string;
    @Field({ optional: true }) @IsEmail() email?: string;
    @Field({ type: [String], optional: true }) @ArrayUnique() more?: string[];
  }
  let received: Contact | undefined;
  class Tools {
    @Tool() contact(contact: Contact): void {
      received = contact;
    }
  }
  const server = new McpServer({ name: 't', version: '1' }).add(new Tools());

  it('accepts a record that leaves out an optional property carrying class-validator rules', async () => {
    const result = await server.callTool('contact', { contact: { name: 'Ada' } });
    expect(result.isError).toBeUndefined();
    expect(received).toBeInstanceOf(Contact);
  });

  it('still runs the rules on a property that is given (class-validator may be stricter than its keyword)', async () => {
    const result = await server.callTool('contact', { contact: { name: 'Ada', email: 'a@b.c' } });
    expect(textOf(result)).toBe("Argument 'contact.email' is not valid. email must be an email");
  });
});

describe('uniqueness is JSON equality', () => {
  const unique = probe(SetOf(Json));
  class Bag {
    @Field({ type: [Json] }) @ArrayUnique() items!: unknown[];
  }
  class Tools {
    @Tool() bag(bag: Bag): void {}
  }
  const server = new McpServer({ name: 't', version: '1' }).add(new Tools());

  it('refuses objects that differ only in key order in a uniqueItems array', async () => {
    const result = await server.callTool('bag', {
      bag: {
        items: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      },
    });
    expect(textOf(result)).toBe("Argument 'bag.items[1]' is not valid. Expected no duplicate items.");
  });

  it('keeps a string and an object with the same JSON text apart', async () => {
    const result = await server.callTool('bag', { bag: { items: ['{"a":1}', { a: 1 }] } });
    expect(result.isError).toBeUndefined();
  });

  it('SetOf drops a duplicate whose keys are in another order', async () => {
    const { received } = await unique([
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ]);
    expect([...(received as Set<unknown>)]).toEqual([{ a: 1, b: 2 }]);
  });
});

describe('date-time as the listing validator reads it', () => {
  const read = probe(Date);

  it.each([
    ['2024-05-01 12:00:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00:00+01', '2024-05-01T11:00:00.000Z'],
    ['2024-05-01T12:00:00+0100', '2024-05-01T11:00:00.000Z'],
    ['2024-05-01T12:00:00-0130', '2024-05-01T13:30:00.000Z'],
  ])('accepts %s as %s', async (text, instant) => {
    const { result, received } = await read(text);
    expect(result.isError).toBeUndefined();
    expect((received as Date).toISOString()).toBe(instant);
  });

  it.each([
    ['0000-02-29T00:00:00Z', '0000-02-29T00:00:00.000Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
    ['0001-01-01T00:30:00+01:00', '0000-12-31T23:30:00.000Z'],
  ])('delivers %s as the right instant (years below 100)', async (text, instant) => {
    const { received } = await read(text);
    expect((received as Date).getTime()).toBe(Date.parse(instant));
  });
});

describe('URL never throws', () => {
  const read = probe(URL);

  it.each(['http://a:99999', 'http://[v1.x]/'])('%s (format uri, but not a WHATWG URL) is an argument error', async (text) => {
    const { result } = await read(text);
    expect(textOf(result)).toBe('Argument \'v\' is not valid. Expected an absolute URL, such as "https://example.com".');
  });
});

describe('base64 is base64', () => {
  const read = probe(Bytes);

  it.each(['%%%%\n', 'QUJD\n%%%%', 'QQ', 'QR==', 'QUI=\n'])('refuses %j', async (text) => {
    const { result } = await read(text);
    expect(textOf(result)).toBe('Argument \'v\' is not valid. Expected base64 text, such as "aGVsbG8=".');
  });

  it.each([
    ['', ''],
    ['QQ==', 'A'],
    ['QUI=', 'AB'],
    ['QUJD', 'ABC'],
  ])('accepts canonical %j', async (text, bytes) => {
    const { received } = await read(text);
    expect(Buffer.from(received as Uint8Array).toString('latin1')).toBe(bytes);
  });
});

describe('patterns with flags', () => {
  it('refuses @Matches with a flag that changes matching, naming the fix (OMCG0013)', () => {
    class Code {
      @Matches(/^[a-z]+$/i) code!: string;
    }
    class Tools {
      @Tool() code(code: Code): void {}
    }
    expect(() => new McpServer({ name: 't', version: '1' }).add(new Tools())).toThrow(
      "OMCG0013 Tools.code, parameter 'code', property 'code': @Matches has the flag 'i', which JSON Schema patterns cannot carry. Fix: write the flag into the pattern itself (for example [A-Za-z] instead of the i flag), or drop it.",
    );
  });

  it('refuses @RegularExpression with the s flag the same way', () => {
    class Tools {
      @Tool() text(@RegularExpression(/^a.b$/s) text: string): void {}
    }
    expect(() => new McpServer({ name: 't', version: '1' }).add(new Tools())).toThrow(DefinitionError);
  });

  it('accepts the u flag', async () => {
    class Tools {
      @Tool() text(@RegularExpression(/^\p{L}+$/u) text: string): string {
        return text;
      }
    }
    const server = new McpServer({ name: 't', version: '1' }).add(new Tools());
    expect(textOf(await server.callTool('text', { text: 'Été' }))).toBe('Été');
  });
});

describe('one table of class-validator rules', () => {
  class Options {
    @Field({ type: Json }) @IsNotEmptyObject() settings!: object;
    @Field({ type: Json }) @IsObject() extra!: object;
  }
  class Tools {
    @Tool() options(options: Options): void {}
  }
  const server = new McpServer({ name: 't', version: '1' }).add(new Tools());

  it('@IsNotEmptyObject refuses {}', async () => {
    const result = await server.callTool('options', { options: { settings: {}, extra: {} } });
    expect(textOf(result)).toBe("Argument 'options.settings' is not valid. settings must be a non-empty object");
  });

  it('@IsObject on a Json property refuses an array', async () => {
    const result = await server.callTool('options', { options: { settings: { a: 1 }, extra: [1] } });
    expect(textOf(result)).toBe("Argument 'options.extra' is not valid. extra must be an object");
  });
});

describe('no internals on the wire, ever', () => {
  @ValidatorConstraint({ name: 'explodes' })
  class Explodes implements ValidatorConstraintInterface {
    validate(): boolean {
      throw new Error('secret validator internals');
    }
  }
  class Trimmed {
    @Transform(() => {
      throw new Error('secret transform internals');
    })
    @Field()
    text!: string;
  }
  class Checked {
    @Validate(Explodes) @Field() text!: string;
  }
  class Written {
    @Transform(
      () => {
        throw new Error('secret writer internals');
      },
      { toPlainOnly: true },
    )
    @Field()
    text!: string;
  }
  class Tools {
    @Tool() trimmed(value: Trimmed): void {}
    @Tool() checked(value: Checked): void {}
    @Tool() written(): Written {
      return Object.assign(new Written(), { text: 'x' });
    }
  }
  const server = new McpServer({ name: 't', version: '1' }).add(new Tools());
  const published: unknown[] = [];
  const listener = (message: unknown) => published.push(message);
  beforeAll(() => subscribe(TOOL_FAILED_CHANNEL, listener));
  afterAll(() => unsubscribe(TOOL_FAILED_CHANNEL, listener));

  it.each([
    ['trimmed', { value: { text: 'x' } }, 'secret transform internals'],
    ['checked', { value: { text: 'x' } }, 'secret validator internals'],
    ['written', {}, 'secret writer internals'],
  ])('%s: a throw inside reading or writing is "The tool failed." and is published', async (tool, args, secret) => {
    published.length = 0;
    const result = await server.callTool(tool, args);
    expect(result).toEqual({ content: [{ type: 'text', text: 'The tool failed.' }], isError: true });
    expect(published).toHaveLength(1);
    expect(String((published[0] as { error: Error }).error.message)).toContain(secret);
  });
});

describe('IsOptional keeps working alongside', () => {
  class Note {
    @IsOptional() @IsEmail() @Field() email?: string;
  }
  class Tools {
    @Tool() note(note: Note): void {}
  }
  const server = new McpServer({ name: 't', version: '1' }).add(new Tools());

  it('accepts an omitted @IsOptional property', async () => {
    expect((await server.callTool('note', { note: {} })).isError).toBeUndefined();
  });
});

describe('lenientJsonStrings (opt-in)', () => {
  class Line {
    @Field() sku!: string;
  }
  let received: unknown;
  class Tools {
    @Tool() lines(@Param({ type: [Line] }) lines: Line[], @Param({ type: DictionaryOf(Int32) }) counts: Record<string, number>): void {
      received = [lines, counts];
    }
  }
  const strict = new McpServer({ name: 't', version: '1' }).add(new Tools());
  const lenient = new McpServer({ name: 't', version: '1' }, { lenientJsonStrings: true }).add(new Tools());
  const args = { lines: '[{"sku":"A"}]', counts: '{"a":1}' };

  it('is off by default: a JSON-encoded array is an argument error', async () => {
    expect(textOf(await strict.callTool('lines', args))).toBe(
      'Argument \'lines\' is not valid. Expected an array, such as [{"sku":"text"}], got a string.\nArgument \'counts\' is not valid. Expected an object, such as {"key":0}, got a string.',
    );
  });

  it('reads objects and arrays sent as JSON text, into instances, when on', async () => {
    expect((await lenient.callTool('lines', args)).isError).toBeUndefined();
    const [lines, counts] = received as [Line[], Record<string, number>];
    expect(lines[0]).toBeInstanceOf(Line);
    expect(lines[0].sku).toBe('A');
    expect({ ...counts }).toEqual({ a: 1 });
  });

  it('still checks what the text holds', async () => {
    expect(textOf(await lenient.callTool('lines', { lines: '[{"sku":1}]', counts: '{}' }))).toBe(
      'Argument \'lines[0].sku\' is not valid. Expected a string, such as "text", got a number.',
    );
    expect(textOf(await lenient.callTool('lines', { lines: '{"sku":"A"}', counts: '{}' }))).toBe(
      'Argument \'lines\' is not valid. Expected an array, such as [{"sku":"text"}], got a string.',
    );
  });
});
