import { Exclude, Expose } from 'class-transformer';
import {
  ArrayOf,
  DefinitionError,
  Description,
  Field,
  Int32,
  McpServer,
  Nullable,
  Param,
  registerSourceFacts,
  StringLiterals,
  Tool,
} from '../../src';
import { methodFactsOf, propertyFactsOf } from '../../src/facts/registry';
import { inputOf, listingOf } from '../support/listing';

enum Level {
  Low = 'low',
  High = 'high',
}

/** Asserts that adding the instance fails with exactly these `CODE where: message` diagnostics. */
function expectProblems(instance: object, lines: readonly string[]): void {
  const add = () => new McpServer({ name: 't', version: '1' }).add(instance);
  expect(add).toThrow(DefinitionError);
  expect(add).toThrow(`${lines.length === 1 ? '1 definition problem' : `${lines.length} definition problems`}:\n`);
  for (const line of lines) expect(add).toThrow(`\n  ${line} Fix: `);
}

describe('registerSourceFacts (issue 6)', () => {
  it('refuses what is not a class', () => {
    expect(() => registerSourceFacts({} as Function, {})).toThrow(TypeError);
  });

  it('describes a tool and its parameters when no decorator does', () => {
    class T {
      @Tool() run(city: string): void {}
    }
    registerSourceFacts(T, {
      methods: [{ name: 'run', description: 'Runs.', params: [{ name: 'city', description: 'The city.', type: String }] }],
    });
    expect(listingOf(new T())).toBe(
      '{"name":"run","description":"Runs.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"The city."}},' +
        '"required":["city"],"additionalProperties":false}}',
    );
  });

  it('lets the description option and @Description win', () => {
    class T {
      @Tool({ description: 'Option.' }) a(): void {}
      @Tool() @Description('Decorator.') b(@Description('Decorator.') x: string): void {}
    }
    registerSourceFacts(T, {
      methods: [
        { name: 'a', description: 'Doc.', params: [] },
        { name: 'b', description: 'Doc.', params: [{ name: 'x', description: 'Doc.', type: String }] },
      ],
    });
    expect(JSON.parse(listingOf(new T(), 'a')).description).toBe('Option.');
    expect(listingOf(new T(), 'b')).toBe(
      '{"name":"b","description":"Decorator.","inputSchema":{"type":"object","properties":{"x":{"type":"string","description":"Decorator."}},' +
        '"required":["x"],"additionalProperties":false}}',
    );
  });

  it('uses the declared type where there is no hint, and the hint where there is one', () => {
    class T {
      @Tool() a(ids: number[], @Param({ type: [Int32] }) counts: number[]): void {}
    }
    registerSourceFacts(T, {
      methods: [
        {
          name: 'a',
          params: [
            { name: 'ids', type: ArrayOf(String) },
            { name: 'counts', type: ArrayOf(Number) },
          ],
        },
      ],
    });
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}},' +
        '"counts":{"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647}}},' +
        '"required":["ids","counts"],"additionalProperties":false}',
    );
  });

  it('takes the names, optionality and literal defaults of the source over the compiled code', () => {
    class T {
      // As a minifier leaves it: the compiled names are not the source's.
      @Tool() a(e: string, t: number): void {}
    }
    registerSourceFacts(T, {
      methods: [
        {
          name: 'a',
          params: [
            { name: 'city', type: String, optional: true },
            { name: 'days', type: Number, optional: true, default: 3 },
          ],
        },
      ],
    });
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"number","default":3}},"additionalProperties":false}',
    );
  });

  it('finds the facts of an inherited method on the class that declares it', () => {
    class Base {
      @Tool() hello(name: string): string {
        return name;
      }
    }
    class Derived extends Base {}
    registerSourceFacts(Base, { methods: [{ name: 'hello', description: 'Says hello.', params: [{ name: 'name', type: String }] }] });
    expect(methodFactsOf(Derived, 'hello')?.description).toBe('Says hello.');
    expect(methodFactsOf(Derived, Symbol('hello'))).toBeUndefined();
  });

  it('unwraps the declared result of an async method', () => {
    class Note {
      @Field() text!: string;
    }
    class T {
      @Tool() async read(): Promise<Note> {
        return new Note();
      }
    }
    registerSourceFacts(T, { methods: [{ name: 'read', params: [], returns: () => Note }] });
    expect(JSON.stringify(JSON.parse(listingOf(new T())).outputSchema)).toBe(
      '{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}',
    );
  });
});

describe('records with source facts', () => {
  it('lists properties without decorators in declaration order, with descriptions, optionality and defaults', () => {
    class Contact {
      @Field() email!: string;
      name!: string;
      nickname?: string;
      level: Level = Level.High;
    }
    registerSourceFacts(Contact, {
      properties: [
        { key: 'name', description: 'Full name.', type: String, design: String },
        { key: 'email', type: String },
        { key: 'nickname', type: String, design: String, optional: true },
        { key: 'level', type: () => Level, design: String, default: 'high' },
      ],
    });
    class T {
      @Tool() add(contact: Contact): void {}
    }
    expect(JSON.stringify(JSON.parse(inputOf(new T())).properties.contact)).toBe(
      '{"type":"object","properties":{"name":{"type":"string","description":"Full name."},"email":{"type":"string"},' +
        '"nickname":{"type":"string"},"level":{"type":"string","enum":["low","high"],"default":"high"}},' +
        '"required":["name","email"],"additionalProperties":false}',
    );
    expect(propertyFactsOf(Contact)).toHaveLength(4);
  });

  it('writes an initialiser only for a class constructible without arguments', () => {
    class Sized {
      size: number = 2;
      constructor(readonly label: string) {}
    }
    registerSourceFacts(Sized, {
      properties: [
        { key: 'label', type: String, design: String },
        { key: 'size', type: Number, design: Number, default: 2 },
      ],
    });
    class T {
      @Tool() a(v: Sized): void {}
    }
    expect(JSON.stringify(JSON.parse(inputOf(new T())).properties.v)).toBe(
      '{"type":"object","properties":{"label":{"type":"string"},"size":{"type":"number"}},"required":["label","size"],"additionalProperties":false}',
    );
  });

  it('leaves out undecorated properties of a class that class-transformer exposes only by @Expose()', () => {
    @Exclude()
    class Secretive {
      @Expose() @Field() shown!: string;
      hidden!: string;
    }
    registerSourceFacts(Secretive, {
      properties: [
        { key: 'shown', type: String },
        { key: 'hidden', type: String, design: String },
      ],
    });
    class T {
      @Tool() a(v: Secretive): void {}
    }
    expect(JSON.stringify(JSON.parse(inputOf(new T())).properties.v)).toBe(
      '{"type":"object","properties":{"shown":{"type":"string"}},"required":["shown"],"additionalProperties":false}',
    );
  });
});

describe('a hint that contradicts the declared type (OMCG0002)', () => {
  it('is reported for parameters, with both types', () => {
    class T {
      @Tool() a(@Param({ type: String }) n: number, @Param({ type: Nullable(String) }) s: string): void {}
    }
    registerSourceFacts(T, {
      methods: [
        {
          name: 'a',
          params: [
            { name: 'n', type: Number },
            { name: 's', type: String },
          ],
        },
      ],
    });
    expectProblems(new T(), [
      "OMCG0002 T.a, parameter 'n': the type hint (string) contradicts the declared type (number) that onemodelcontext generate read from the source.",
      "OMCG0002 T.a, parameter 's': the type hint (string | null) contradicts the declared type (string) that onemodelcontext generate read from the source.",
    ]);
  });

  it('is reported for results and record properties', () => {
    class Box {
      @Field(Int32) label!: string;
    }
    registerSourceFacts(Box, { properties: [{ key: 'label', type: String }] });
    class T {
      @Tool({ returns: Int32 }) async count(): Promise<string> {
        return '';
      }
      @Tool() put(box: Box): void {}
    }
    registerSourceFacts(T, {
      methods: [
        { name: 'count', params: [], returns: String },
        { name: 'put', params: [{ name: 'box' }] },
      ],
    });
    expectProblems(new T(), [
      'OMCG0002 T.count, result: the type hint (number) contradicts the declared type (string) that onemodelcontext generate read from the source.',
      "OMCG0002 T.put, parameter 'box', property 'label': the type hint (number) contradicts the declared type (string) that onemodelcontext generate read from the source.",
    ]);
  });

  it('is not reported for a hint that narrows the declared type', () => {
    class T {
      @Tool() a(
        @Param({ type: Int32 }) n: number,
        @Param({ type: String }) s: string | null,
        @Param({ type: StringLiterals('low') }) l: Level,
        @Param({ type: Level }) text: string,
      ): void {}
    }
    registerSourceFacts(T, {
      methods: [
        {
          name: 'a',
          params: [
            { name: 'n', type: Number },
            { name: 's', type: Nullable(String) },
            { name: 'l', type: () => Level },
            { name: 'text', type: String },
          ],
        },
      ],
    });
    expect(() => new McpServer({ name: 't', version: '1' }).add(new T())).not.toThrow();
  });
});
