import {
  ArrayOf,
  Description,
  DictionaryOf,
  EmailAddress,
  Int32,
  Length,
  MaxLength,
  MinLength,
  Nullable,
  Param,
  Range,
  McpServer,
  RegularExpression,
  RequestContext,
  SetOf,
  StringLength,
  Tool,
  Url,
  Uuid,
  Char,
} from '../../src';
import { inputOf, listingOf, quickInputOf } from '../support/listing';

enum Unit {
  Celsius,
  Fahrenheit,
}
enum Level {
  Low = 'low',
  High = 'high',
}

describe('parameters from design metadata and the compiled source', () => {
  it('names parameters as written and keeps declaration order', () => {
    class T {
      @Tool() run(city: string, count: number, flag: boolean, when: Date, where: URL, data: Uint8Array, big: bigint): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"city":{"type":"string"},"count":{"type":"number"},"flag":{"type":"boolean"},' +
        '"when":{"type":"string","format":"date-time"},"where":{"type":"string","format":"uri"},' +
        '"data":{"type":"string","contentEncoding":"base64"},' +
        '"big":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},' +
        '"required":["city","count","flag","when","where","data","big"],"additionalProperties":false}',
    );
  });

  it('makes a literal default optional and writes it as default', () => {
    class T {
      @Tool() forecast(city: string, days: number = 3, metric: boolean = true, label: string = 'x', offset: number = -2): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"number","default":3},' +
        '"metric":{"type":"boolean","default":true},"label":{"type":"string","default":"x"},"offset":{"type":"number","default":-2}},' +
        '"required":["city"],"additionalProperties":false}',
    );
  });

  it('writes an enum default in its listed form (numeric by member name, string by value), from the source or the default option', () => {
    class T {
      @Tool() a(@Param({ type: Unit }) unit: Unit = Unit.Fahrenheit, @Param({ type: Level, default: Level.High }) level: Level): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"unit":{"type":"string","enum":["Celsius","Fahrenheit"],"default":"Fahrenheit"},' +
        '"level":{"type":"string","enum":["low","high"],"default":"high"}},"additionalProperties":false}',
    );
  });

  it('makes a non-literal or null default optional without writing it', () => {
    class T {
      @Tool() a(
        when: Date = new Date(0),
        @Param({ type: Nullable(String) }) note: string | null = null,
        @Param({ type: [String] }) tags: string[] = [],
      ): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"when":{"type":"string","format":"date-time"},"note":{"type":["string","null"]},' +
        '"tags":{"type":"array","items":{"type":"string"}}},"additionalProperties":false}',
    );
  });

  it('keeps a nullable parameter without default required', () => {
    class T {
      @Tool() a(@Param({ nullable: true }) note: string, @Param({ optional: true }) extra: string): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"note":{"type":["string","null"]},"extra":{"type":"string"}},"required":["note"],"additionalProperties":false}',
    );
  });

  it('renames with @Param and describes with the option or @Description', () => {
    class T {
      @Tool() a(@Param('city_name', { description: 'City' }) city: string, @Description('Days ahead') days: number): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"city_name":{"type":"string","description":"City"},"days":{"type":"number","description":"Days ahead"}},' +
        '"required":["city_name","days"],"additionalProperties":false}',
    );
  });

  it('never lists RequestContext or AbortSignal parameters', () => {
    class T {
      @Tool() a(ctx: RequestContext, city: string, signal: AbortSignal): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}',
    );
  });

  it('treats a non-collection hint on an array, set or map as the element type', () => {
    class T {
      @Tool() a(
        @Param({ type: Int32 }) ids: number[],
        @Param({ type: Uuid }) keys: Set<string>,
        @Param({ type: Number }) prices: Map<string, number>,
      ): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},' +
        '"keys":{"type":"array","items":{"type":"string","format":"uuid"},"uniqueItems":true},' +
        '"prices":{"type":"object","additionalProperties":{"type":"number"}}},"required":["ids","keys","prices"],"additionalProperties":false}',
    );
  });
});

describe('validation decorators', () => {
  it('write their keywords in the fixed order', () => {
    class T {
      @Tool() a(
        @Range(1, 14) days: number,
        @Range(0, 10) @Param({ type: Int32 }) level: number,
        @StringLength(64, { min: 2 }) @RegularExpression(/^[a-z]+$/) name: string,
        @MinLength(1) @MaxLength(5) @Param({ type: [String] }) tags: string[],
        @Length(2, 3) @Param({ type: SetOf(String) }) codes: Set<string>,
        @EmailAddress() @Description('Mail') email: string,
        @Url() site: string,
      ): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"days":{"type":"number","minimum":1,"maximum":14},' +
        '"level":{"type":"integer","minimum":0,"maximum":10},' +
        '"name":{"type":"string","minLength":2,"maxLength":64,"pattern":"^[a-z]+$"},' +
        '"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":5},' +
        '"codes":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":3,"uniqueItems":true},' +
        '"email":{"type":"string","format":"email","description":"Mail"},"site":{"type":"string","format":"uri"}},' +
        '"required":["days","level","name","tags","codes","email","site"],"additionalProperties":false}',
    );
  });

  it('apply inside Nullable', () => {
    class T {
      @Tool() a(
        @Range(1, 2) @Param({ nullable: true }) n: number,
        @StringLength(3) @Param({ type: Nullable(String), default: 'ab' }) s: string | null,
      ): void {}
    }
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"n":{"type":["number","null"],"minimum":1,"maximum":2},' +
        '"s":{"type":["string","null"],"maxLength":3,"default":"ab"}},"required":["n"],"additionalProperties":false}',
    );
  });

  class P1 {
    @Tool() a(@Param('d', { type: Int32 }) @Range(1, 9) @Description('D') d: number): void {}
  }
  class P2 {
    @Tool() a(@Range(1, 9) @Description('D') @Param('d', { type: Int32 }) d: number): void {}
  }
  class P3 {
    @Tool() a(@Description('D') @Param('d', { type: Int32 }) @Range(1, 9) d: number): void {}
  }
  const permutations: [string, object][] = [
    ['Param, Range, Description', new P1()],
    ['Range, Description, Param', new P2()],
    ['Description, Param, Range', new P3()],
  ];
  it.each(permutations)('do not depend on order: %s', (_order, instance) => {
    expect(inputOf(instance)).toBe(
      '{"type":"object","properties":{"d":{"type":"integer","description":"D","minimum":1,"maximum":9}},"required":["d"],"additionalProperties":false}',
    );
  });

  it('do not depend on order around @Tool and @Description on the method', () => {
    class A {
      @Tool({ name: 'x' }) @Description('Does x') a(): void {}
    }
    class B {
      @Description('Does x') @Tool({ name: 'x' }) a(): void {}
    }
    expect(listingOf(new A())).toBe(listingOf(new B()));
    expect(listingOf(new A())).toBe(
      '{"name":"x","description":"Does x","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}',
    );
  });
});

describe('tool names, descriptions and annotations (DESIGN.md section 3)', () => {
  it.each([
    ['getDocketAsync', 'get_docket'],
    ['HTTPRequest', 'http_request'],
    ['listOpenCases', 'list_open_cases'],
    ['Async', 'async'],
    ['getHTTPResponse2Async', 'get_http_response2'],
  ])('names %s as %s', (method, expected) => {
    const cls = class {};
    Object.defineProperty(cls.prototype, method, { value: function () {}, configurable: true, writable: true });
    Reflect.defineMetadata('design:paramtypes', [], cls.prototype, method);
    Tool()(cls.prototype, method, Object.getOwnPropertyDescriptor(cls.prototype, method));
    expect(JSON.parse(listingOf(new cls())).name).toBe(expected);
  });

  it('writes title and only the assigned hints, in the annotation order', () => {
    class T {
      @Tool({ title: 'Delete', destructive: true, readOnly: false, description: 'Deletes' }) @Description('ignored') remove(): void {}
    }
    expect(listingOf(new T())).toBe(
      '{"name":"remove","title":"Delete","description":"Deletes","inputSchema":{"type":"object","properties":{},"additionalProperties":false},' +
        '"annotations":{"title":"Delete","readOnlyHint":false,"destructiveHint":true}}',
    );
  });

  it('writes idempotent and openWorld hints', () => {
    class T {
      @Tool({ idempotent: true, openWorld: false }) sync(): void {}
    }
    expect(JSON.stringify(JSON.parse(listingOf(new T())).annotations)).toBe('{"idempotentHint":true,"openWorldHint":false}');
  });

  it('writes _meta.ui, and the older ui/resourceUri key, for an MCP Apps tool', () => {
    class T {
      @Tool({ uiResource: 'ui://weather/view' }) show(): void {}
      @Tool({ uiResource: 'ui://weather/app', uiVisibility: ['app'] }) refresh(): void {}
      @Tool({ uiVisibility: ['app'] }) poll(): void {}
    }
    const server = new McpServer({ name: 'test', version: '1' })
      .addUiResource('ui://weather/view', { html: '<p>view</p>' })
      .addUiResource('ui://weather/app', { html: '<p>app</p>' })
      .add(new T());
    expect(server.listTools().map((t) => JSON.stringify(t._meta))).toEqual([
      '{"ui":{"resourceUri":"ui://weather/view","visibility":["model","app"]},"ui/resourceUri":"ui://weather/view"}',
      '{"ui":{"resourceUri":"ui://weather/app","visibility":["app"]},"ui/resourceUri":"ui://weather/app"}',
      '{"ui":{"visibility":["app"]}}',
    ]);
  });
});

describe('the quick path writes the same schema as the decorator path', () => {
  it('for scalars, hints, nullables and collections', () => {
    class T {
      @Tool() a(
        city: string,
        @Param({ type: Int32 }) count: number,
        @Param({ type: Nullable(Char) }) sep: string | null,
        @Param({ type: ArrayOf(Uuid) }) ids: string[],
        @Param({ type: DictionaryOf(Boolean) }) flags: Record<string, boolean>,
        when: Date,
      ): void {}
    }
    expect(
      quickInputOf({
        params: { city: String, count: Int32, sep: Nullable(Char), ids: ArrayOf(Uuid), flags: DictionaryOf(Boolean), when: Date },
      }),
    ).toBe(inputOf(new T()));
  });

  it('for descriptions, defaults and optional parameters', () => {
    class T {
      @Tool() a(
        @Param({ description: 'City' }) city: string,
        @Param({ type: Unit, default: Unit.Celsius }) unit: Unit,
        @Param({ optional: true }) note: string,
      ): void {}
    }
    expect(
      quickInputOf({
        params: {
          city: { type: String, description: 'City' },
          unit: { type: Unit, default: Unit.Celsius },
          note: { type: String, optional: true },
        },
      }),
    ).toBe(inputOf(new T()));
  });
});

describe('results', () => {
  it('writes no outputSchema for text, numbers or void', () => {
    class T {
      @Tool() a(): string {
        return '';
      }
      @Tool() b(): number {
        return 1;
      }
      @Tool() c(): void {}
      @Tool() async d(): Promise<string> {
        return '';
      }
    }
    for (const name of ['a', 'b', 'c', 'd']) expect(JSON.parse(listingOf(new T(), name)).outputSchema).toBeUndefined();
  });

  it('writes a dictionary outputSchema', () => {
    class T {
      @Tool({ returns: DictionaryOf(Int32) }) async counts(): Promise<Record<string, number>> {
        return {};
      }
    }
    expect(JSON.stringify(JSON.parse(listingOf(new T())).outputSchema)).toBe(
      '{"type":"object","additionalProperties":{"type":"integer","minimum":-2147483648,"maximum":2147483647}}',
    );
  });
});
