import { Expose } from 'class-transformer';
import {
  DefinitionError,
  Field,
  McpServer,
  Param,
  Range,
  RegularExpression,
  RequestContext,
  StringLength,
  Tool,
  Length,
  EmailAddress,
  Uuid,
  TimeSpan,
} from '../../src';
import { diagnosticsOf } from '../support/diagnostics';

function codesOf(instance: object): string[] {
  return diagnosticsOf(instance).map((d) => `${d.code} ${d.where}`);
}

interface Shape {
  x: number;
}

describe('definition diagnostics (DESIGN.md section 9)', () => {
  it('OMCG0001: a static method, a getter or a field', () => {
    class T {
      @Tool() static make(): void {}
      @Tool() get value(): string {
        return '';
      }
      @(Tool() as PropertyDecorator) field!: string;
    }
    // TypeScript decorates instance members before static ones.
    expect(codesOf(new T())).toEqual(['OMCG0001 T.value', 'OMCG0001 T.field', 'OMCG0001 T.make']);
  });

  it('OMCG0002: types without a schema', () => {
    class T {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- `any` is the case under test
      @Tool() a(shape: Shape, fn: Function, sym: symbol, later: Promise<string>, anything: any, either: string | number): void {}
    }
    const diagnostics = diagnosticsOf(new T());
    expect(diagnostics.map((d) => `${d.code} ${d.where}`)).toEqual([
      "OMCG0002 T.a, parameter 'shape'",
      "OMCG0002 T.a, parameter 'fn'",
      "OMCG0002 T.a, parameter 'sym'",
      "OMCG0002 T.a, parameter 'later'",
      "OMCG0002 T.a, parameter 'anything'",
      "OMCG0002 T.a, parameter 'either'",
    ]);
    expect(diagnostics[0].message).toBe('Object has no JSON Schema.');
    expect(diagnostics[0].fix).toMatch(/^give a type hint/);
  });

  it('OMCG0002: a class compiled without decorator metadata (esbuild, tsx) is refused with that cause', () => {
    // What esbuild emits: the decorators run, but no design:* metadata is written.
    class Plain {
      forecast(city: string): string {
        return city;
      }
    }
    Reflect.decorate([Tool()], Plain.prototype, 'forecast', Object.getOwnPropertyDescriptor(Plain.prototype, 'forecast'));
    const [d] = diagnosticsOf(new Plain());
    expect(d.code).toBe('OMCG0002');
    expect(d.where).toBe('Plain.forecast');
    expect(d.message).toBe('the method has no design:paramtypes metadata, so its parameter types are unknown.');
    expect(d.fix).toContain('emitDecoratorMetadata');
    expect(d.fix).toContain('tsx');
  });

  it('OMCG0002: a record property without metadata', () => {
    class Rec {
      name!: string;
    }
    Reflect.decorate([Field()], Rec.prototype, 'name');
    class T {
      @Tool() a(r: Rec): void {}
    }
    const [d] = diagnosticsOf(new T());
    expect(`${d.code} ${d.where} ${d.message}`).toBe("OMCG0002 T.a, parameter 'r', property 'name' Rec.name has no design:type metadata.");
  });

  it('OMCG0003: a result that cannot be sent', () => {
    class T {
      @Tool() a(): symbol {
        return Symbol('x');
      }
      @Tool() b(): Function {
        return () => 1;
      }
    }
    expect(codesOf(new T())).toEqual(['OMCG0003 T.a, result', 'OMCG0003 T.b, result']);
  });

  it('OMCG0005: collections without element hints and records without properties', () => {
    class Empty {
      name!: string;
    }
    class T {
      @Tool() a(tags: string[], keys: Set<string>, map: Map<string, number>, empty: Empty): void {}
    }
    const diagnostics = diagnosticsOf(new T());
    expect(diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual([
      "OMCG0005 T.a, parameter 'tags': Array has no element type: TypeScript erases it.",
      "OMCG0005 T.a, parameter 'keys': Set has no element type: TypeScript erases it.",
      "OMCG0005 T.a, parameter 'map': Map has no element type: TypeScript erases it.",
      "OMCG0005 T.a, parameter 'empty': Empty has no discoverable properties: TypeScript keeps only decorated properties.",
    ]);
    expect(diagnostics[2].fix).toBe(
      'give a type hint such as DictionaryOf(Number), or run `npx onemodelcontext generate`, which reads the declared type from the source.',
    );
  });

  it('OMCG0006: a record that refers to itself', () => {
    class Node1 {
      @Field() name!: string;
      @Field({ type: () => [Node1] }) children!: Node1[];
    }
    class T {
      @Tool() a(tree: Node1): void {}
    }
    const [d] = diagnosticsOf(new T());
    expect(`${d.code} ${d.where}: ${d.message}`).toBe(
      "OMCG0006 T.a, parameter 'tree', property 'children': Node1 refers to itself (Node1 -> Node1).",
    );
  });

  it('OMCG0007: duplicate tool, parameter and property names', () => {
    class Rec {
      @Field() a!: string;
      @Field() @Expose({ name: 'a' }) b!: string;
    }
    class T {
      @Tool('same') one(): void {}
      @Tool('same') two(): void {}
      @Tool() p(@Param('x') a: string, @Param('x') b: string): void {}
      @Tool() r(rec: Rec): void {}
    }
    // Every problem at once: the name clash of valid members too, not only once the others are fixed.
    expect(codesOf(new T())).toEqual(["OMCG0007 T.p, parameter 'x'", "OMCG0007 T.r, parameter 'rec', property 'a'", 'OMCG0007 T.two']);
    class U {
      @Tool('same') one(): void {}
      @Tool('same') two(): void {}
    }
    expect(codesOf(new U())).toEqual(['OMCG0007 U.two']);
  });

  it('OMCG0007: a tool name already used by another class of the server', () => {
    class A {
      @Tool() ping(): void {}
    }
    class B {
      @Tool() ping(): void {}
    }
    const server = new McpServer({ name: 't', version: '1' }).add(new A());
    expect(() => server.add(new B())).toThrow(/OMCG0007 B\.ping: the tool name 'ping' is already used by A\.ping\./);
    expect(server.listTools().map((t) => t.name)).toEqual(['ping']);
  });

  it('OMCG0008: an invalid tool name and a parameter without a name', () => {
    class T {
      @Tool('has space') a(): void {}
      @Tool({ name: 'x'.repeat(129) }) b(): void {}
      @Tool() c({ city }: { city: string }): void {}
    }
    expect(codesOf(new T())).toEqual(['OMCG0008 T.a', 'OMCG0008 T.b', 'OMCG0008 T.c, parameter 1']);
  });

  it('OMCG0009: more than one RequestContext or AbortSignal', () => {
    class T {
      @Tool() a(c1: RequestContext, c2: RequestContext): void {}
      @Tool() b(s1: AbortSignal, s2: AbortSignal): void {}
    }
    expect(codesOf(new T())).toEqual(['OMCG0009 T.a, parameter 2', 'OMCG0009 T.b, parameter 2']);
  });

  it('OMCG0012: uiResource and uiVisibility', () => {
    class T {
      @Tool({ uiResource: 'https://x/view' }) a(): void {}
      @Tool({ uiResource: 'ui://x/view', uiVisibility: ['model', 'user' as 'app'] }) b(): void {}
    }
    const diagnostics = diagnosticsOf(new T());
    expect(diagnostics.map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual([
      "OMCG0012 T.a: uiResource 'https://x/view' is not a ui:// URI.",
      "OMCG0012 T.b: uiVisibility holds 'user'.",
    ]);
  });

  it('OMCG0015: a uiResource that names no registered view', () => {
    class T {
      @Tool({ uiResource: 'ui://x/view' }) a(): void {}
      @Tool({ uiResource: 'ui://x/other' }) b(): void {}
    }
    const server = new McpServer({ name: 't', version: '1' }).addUiResource('ui://x/view', { html: '<p>x</p>' });
    expect(() => server.add(new T())).toThrow(
      "T has 1 definition problem:\n  OMCG0015 T.b: uiResource 'ui://x/other' names no registered view. Fix: register it first: server.addUiResource('ui://x/other', { html }) before adding the class.",
    );
    expect(() => server.tool('q', { uiResource: 'ui://x/missing' }, () => 'x')).toThrow(
      /OMCG0015 tool 'q': uiResource 'ui:\/\/x\/missing' names no registered view/,
    );
  });

  it('OMCG0013: constraints that do not fit their type', () => {
    class T {
      @Tool() a(
        @Range(1, 5) name: string,
        @Range(5, 1) n: number,
        @RegularExpression('([a-z') code: string,
        @StringLength(3) flag: boolean,
        @Length(-1, 2) s: string,
        @EmailAddress() @Param({ type: Uuid }) id: string,
        @RegularExpression('x') @Param({ type: TimeSpan }) span: number,
      ): void {}
    }
    expect(diagnosticsOf(new T()).map((d) => `${d.code} ${d.where}: ${d.message}`)).toEqual([
      "OMCG0013 T.a, parameter 'name': @Range does not fit a string.",
      "OMCG0013 T.a, parameter 'n': @Range has min 5 greater than max 1.",
      "OMCG0013 T.a, parameter 'code': @RegularExpression has a pattern that is not a valid regular expression: /([a-z/.",
      "OMCG0013 T.a, parameter 'flag': @StringLength does not fit a boolean.",
      "OMCG0013 T.a, parameter 's': @Length needs whole, non-negative lengths.",
      "OMCG0013 T.a, parameter 'id': @EmailAddress does not fit a uuid string.",
      "OMCG0013 T.a, parameter 'span': @RegularExpression does not fit a string.",
    ]);
  });

  it('lists every problem of a class at once, with what, where and the fix', () => {
    class T {
      @Tool('bad name') a(tags: string[]): void {}
      @Tool() static b(): void {}
    }
    let message = '';
    expect(() => new McpServer({ name: 't', version: '1' }).add(new T())).toThrow(DefinitionError);
    try {
      new McpServer({ name: 't', version: '1' }).add(new T());
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'T has 3 definition problems:\n' +
        "  OMCG0008 T.a: the tool name 'bad name' is not valid: use 1 to 128 ASCII letters, digits, '_', '-' or '.'. Fix: give a valid name with @Tool('name').\n" +
        "  OMCG0005 T.a, parameter 'tags': Array has no element type: TypeScript erases it. Fix: give a type hint such as [String] or ArrayOf(Int32), or run `npx onemodelcontext generate`, which reads the declared type from the source.\n" +
        '  OMCG0001 T.b: @Tool is on a static method; only instance methods can be tools. Fix: move @Tool to an instance method.',
    );
  });

  it('refuses decorators used without parentheses', () => {
    expect(() => {
      class T {
        // @ts-expect-error: the mistake under test
        @Tool a(): void {}
      }
      return T;
    }).toThrow('@Tool is a decorator factory. Did you forget to call it? Use @Tool() instead of @Tool.');
  });

  it('refuses wrong decorator arguments at once', () => {
    expect(() => Tool({ readOnly: 'yes' as unknown as boolean })).toThrow("@Tool(): 'readOnly' must be true or false, got string.");
    expect(() => Range('1' as unknown as number, 2)).toThrow('@Range(): min must be a number, got 1.');
    expect(() => new McpServer({ name: 1 } as never)).toThrow(/needs \{ name, version \}/);
  });

  it('refuses a quick-path tool with the same diagnostics', () => {
    const server = new McpServer({ name: 't', version: '1' });
    expect(() => server.tool('q', { params: { tags: Array } }, () => 1)).toThrow(/OMCG0005 tool 'q', parameter 'tags'/);
    expect(server.listTools()).toEqual([]);
  });
});
