import '../fixtures/robust/src/onemodelcontext.facts';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeHost } from '../../src/generate/cli';
import { GenerateSession } from '../../src/generate/generate';
import { IsString } from 'class-validator';
import { DefinitionError, Field, Int32, McpServer, Param, Range, registerSourceFacts, Tool, type McpLogger } from '../../src';
import { resetDesignOnlyWarning } from '../../src/schema/resolve/design-only';
import { KeyedTools } from '../fixtures/robust/src/keys';
import { PageTools } from '../fixtures/robust/src/optional';
import { searchTools } from '../fixtures/robust/src/private';
import { fixtureFile, run, type Run } from '../support/generate';
import { listingOf } from '../support/listing';

/** Issue 35, items 9 and 10: the generator reads what it can, and nothing is listed wrong without a word. */

let strict: Run;
let loose: Run;
beforeAll(() => {
  strict = run('robust', ['generate']);
  loose = run('robust', ['generate', '--project', 'tsconfig.loose.json']);
});

describe('one class the generator cannot read', () => {
  it('is reported, and the facts of every other class are written (the committed module)', () => {
    expect(strict.stderr).toBe(
      'src/keys.ts:23:11 - OMCG0008 the computed key [dynamic] of DynamicTools is not a string the compiler knows: use a string literal, a const enum member or a member of a `const` object.\n' +
        'Found 1 error. Kept src/onemodelcontext.facts.ts: facts of 6 classes (1 left out: see the errors above).',
    );
    expect(strict.code).toBe(1);
    expect(strict.written.size).toBe(0);
    expect(fixtureFile('robust', 'src/onemodelcontext.facts.ts')).not.toContain('DynamicTools');
  });

  it('still tells --check whether the module is stale', () => {
    const check = run('robust', ['generate', '--check'], { 'src/onemodelcontext.facts.ts': 'stale' });
    expect(check.code).toBe(1);
    expect(check.stderr.split('\n').pop()).toBe('Found 1 error; src/onemodelcontext.facts.ts is stale: run onemodelcontext generate.');
  });
});

describe('classes that are not exported', () => {
  it('are registered by name, a private string enum as its literals', () => {
    const text = fixtureFile('robust', 'src/onemodelcontext.facts.ts');
    expect(text).toContain("registerSourceFacts('SearchTools', {");
    expect(text).toContain("{ name: 'query', type: () => SourceClass('Query') },");
    expect(text).toContain("{ name: 'mode', description: 'How hard to look', type: StringLiterals('fast', 'full') },");
  });

  it('are listed from those facts', () => {
    expect(listingOf(searchTools())).toBe(
      '{"name":"search","description":"Searches","inputSchema":{"type":"object","properties":{"query":{"type":"object","properties":' +
        '{"text":{"type":"string","description":"What to look for."},"limit":{"type":"number"}},"required":["text"],"additionalProperties":false},' +
        '"mode":{"type":"string","description":"How hard to look","enum":["fast","full"]}},"required":["query","mode"],"additionalProperties":false}}',
    );
  });
});

describe('computed keys', () => {
  it('read as the literal a const enum member or a const object gives', () => {
    expect(listingOf(new KeyedTools())).toBe(
      '{"name":"keyed","inputSchema":{"type":"object","properties":{"v":{"type":"object","properties":{"alpha":{"type":"string"},"beta":{"type":"number"}},' +
        '"required":["alpha"],"additionalProperties":false}},"required":["v"],"additionalProperties":false}}',
    );
  });
});

describe('@IsOptional() @IsInt() skip?: number (no false OMCG0002)', () => {
  it('has the same facts with strictNullChecks and without', () => {
    expect(loose.stderr.split('\n')[0]).toBe(strict.stderr.split('\n')[0]);
    const line = "{ key: 'skip', type: Number, optional: true },";
    expect(fixtureFile('robust', 'src/onemodelcontext.facts.ts')).toContain(line);
    // Nothing written: the module it makes without strictNullChecks is the committed one, byte for byte.
    expect(loose.written.size).toBe(0);
    expect(loose.stderr.split('\n').pop()).toBe(
      'Found 1 error. Kept src/onemodelcontext.facts.ts: facts of 6 classes (1 left out: see the errors above).',
    );
  });

  it('starts and lists an optional integer that may be null', () => {
    expect(listingOf(new PageTools())).toBe(
      '{"name":"list","inputSchema":{"type":"object","properties":{"page":{"type":"object","properties":{"skip":{"type":["integer","null"],' +
        '"minimum":-9007199254740991,"maximum":9007199254740991}},"additionalProperties":false}},"required":["page"],"additionalProperties":false}}',
    );
  });
});

function addProblems(instance: object): string {
  try {
    new McpServer({ name: 't', version: '1' }, { logger: false }).add(instance);
  } catch (error) {
    if (error instanceof DefinitionError) return error.message;
    throw error;
  }
  return '';
}

describe('facts that no longer match the method (OMCG0016)', () => {
  it('are refused when a parameter was added since', () => {
    class T {
      @Tool() forecast(city: string, days: number): string {
        return `${city}${days}`;
      }
    }
    registerSourceFacts(T, { methods: [{ name: 'forecast', params: [{ name: 'city', type: String }] }] });
    expect(addProblems(new T())).toBe(
      'T has 1 definition problem:\n  OMCG0016 T.forecast: the generated facts describe the parameters (city), but the method declares (city, days): ' +
        'the facts module is older than the source. Fix: run `npx onemodelcontext generate` again (and `onemodelcontext generate --check` in CI, which fails while the module is stale).',
    );
  });

  it('are refused when a parameter was renamed since', () => {
    class T {
      @Tool() forecast(town: string): string {
        return town;
      }
    }
    registerSourceFacts(T, { methods: [{ name: 'forecast', params: [{ name: 'city', type: String }] }] });
    expect(addProblems(new T())).toContain(
      'OMCG0016 T.forecast: the generated facts describe the parameters (city), but the method declares (town)',
    );
  });
});

describe('hint texts say only what the generator reads', () => {
  it('for an interface parameter', () => {
    interface Filter {
      city: string;
    }
    class T {
      @Tool() search(filter: Filter): string {
        return filter.city;
      }
    }
    expect(addProblems(new T())).toBe(
      "T has 1 definition problem:\n  OMCG0002 T.search, parameter 'filter': Object has no JSON Schema. Fix: give a type hint (@Param({ type }) or @Field(type)), " +
        'or use a supported type: string, number, boolean, Date, URL, Uint8Array, an enum, a record class or a hint token; ' +
        'or run `npx onemodelcontext generate`, which reads the declared type from the source when it is an enum, a union of string literals, `T | null` ' +
        'or a type alias of one (not an interface or another union: declare a class, or hint Json).',
    );
  });
});

describe('a parameter typed only by design metadata', () => {
  enum Unit {
    Celsius = 'celsius',
    Fahrenheit = 'fahrenheit',
  }
  class Weather {
    @Tool() forecast(city: string, unit: Unit, days: number = 3): string {
      return `${city}${unit}${days}`;
    }
  }

  /** What the logger of every server `add` makes is told. */
  function warnings(add: (server: () => McpServer) => void): string[] {
    resetDesignOnlyWarning();
    const lines: string[] = [];
    const logger: McpLogger = { error: () => {}, warn: (m) => void lines.push(m), info: () => {}, debug: () => {} };
    add(() => new McpServer({ name: 't', version: '1' }, { logger }));
    return lines;
  }

  it('is named once, with both fixes (a string enum lists as any string)', () => {
    const lines = warnings((server) => {
      server().add(new Weather());
      server().add(new Weather());
    });
    expect(lines).toEqual([
      '2 parameters are typed only by design metadata, which says String or Number for an enum or a union of literals too, so they are listed as any string or number: ' +
        "Weather.forecast, parameter 'city' (String); Weather.forecast, parameter 'unit' (String). " +
        "If one is an enum or a union of literals, give its type (@Param({ type: Unit }), @Param({ type: StringLiterals('a', 'b') })), " +
        'or run `npx onemodelcontext generate` and import the facts module, which reads every declared type. ' +
        'A hint on a plain one (@Param({ type: String })) or a constraint silences this; it is said once.',
    ]);
  });

  it('is not named when facts describe the method', () => {
    class Described {
      @Tool() forecast(unit: Unit): string {
        return unit;
      }
    }
    registerSourceFacts(Described, { methods: [{ name: 'forecast', params: [{ name: 'unit', type: Unit }] }] });
    expect(warnings((server) => server().add(new Described()))).toEqual([]);
  });

  it('is named for an undecorated override, from the metadata of the class that declared the tool', () => {
    class Base {
      @Tool() forecast(@Param({ type: String }) city: string, unit: Unit): string {
        return `${city}${unit}`;
      }
    }
    class Override extends Base {
      override forecast(city: string, unit: Unit): string {
        return `${unit}${city}`;
      }
    }
    expect(warnings((server) => server().add(new Override()))).toEqual([
      '1 parameter is typed only by design metadata, which says String or Number for an enum or a union of literals too, so it is listed as any string or number: ' +
        "Override.forecast (declared in Base), parameter 'unit' (String). " +
        "If one is an enum or a union of literals, give its type (@Param({ type: Unit }), @Param({ type: StringLiterals('a', 'b') })), " +
        'or run `npx onemodelcontext generate` and import the facts module, which reads every declared type. ' +
        'A hint on a plain one (@Param({ type: String })) or a constraint silences this; it is said once.',
    ]);
  });

  describe('a record property', () => {
    class Place {
      @Field() unit!: Unit;
      @Field({ type: String }) name!: string;
      @IsString() country!: string;
      @Field() @Range(0, 9) level!: number;
    }
    class Trip {
      @Field() from!: Place;
      @Field() to!: Place;
      @Field() days!: number;
    }
    class Planner {
      @Tool() plan(@Param({ type: Int32 }) count: number, trip: Trip): string {
        return `${count}${trip.days}`;
      }
    }
    class Noted {
      @Tool() note(days: number, place: Place): string {
        return `${days}${place.name}`;
      }
    }

    it('is named with its class, nested records too, in one warning with the parameters', () => {
      const lines = warnings((server) => {
        server().add(new Noted());
        server().add(new Planner());
      });
      expect(lines).toEqual([
        '1 parameter and 1 property are typed only by design metadata, which says String or Number for an enum or a union of literals too, ' +
          "so they are listed as any string or number: Noted.note, parameter 'days' (Number); Place, property 'unit' (String). " +
          "If one is an enum or a union of literals, give its type (@Param({ type: Unit }), @Field({ type: Unit }), @Param({ type: StringLiterals('a', 'b') })), " +
          'or run `npx onemodelcontext generate` and import the facts module, which reads every declared type. ' +
          'A hint on a plain one (@Param({ type: String }), @Field({ type: String })) or a constraint silences this; it is said once.',
      ]);
    });

    it('is named in nested records, each class once', () => {
      expect(warnings((server) => server().add(new Planner()))).toEqual([
        '2 properties are typed only by design metadata, which says String or Number for an enum or a union of literals too, ' +
          "so they are listed as any string or number: Place, property 'unit' (String); Trip, property 'days' (Number). " +
          "If one is an enum or a union of literals, give its type (@Field({ type: Unit }), @Field({ type: StringLiterals('a', 'b') })), " +
          'or run `npx onemodelcontext generate` and import the facts module, which reads every declared type. ' +
          'A hint on a plain one (@Field({ type: String })) or a constraint silences this; it is said once.',
      ]);
    });

    it('is not named when facts describe the record', () => {
      class Described {
        @Field() unit!: Unit;
      }
      class Uses {
        @Tool() use(@Param({ type: Described }) d: Described): string {
          return d.unit;
        }
      }
      registerSourceFacts(Described, { properties: [{ key: 'unit', type: Unit }] });
      expect(warnings((server) => server().add(new Uses()))).toEqual([]);
    });
  });
});

describe('a watch loop (GenerateSession)', () => {
  const dir = path.join(__dirname, '..', 'fixtures', `robust-watch-${process.pid}`);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads again only the file that changed, and writes the module only when its text changed', () => {
    fs.cpSync(path.join(__dirname, '..', 'fixtures', 'robust'), dir, { recursive: true });
    const out: string[] = [];
    const host = { ...nodeHost(dir), stdout: (l: string) => out.push(l), stderr: (l: string) => out.push(l) };
    const session = new GenerateSession({}, host);
    expect(session.run()).toBe(1);
    expect(session.cache.parsed.length).toBeGreaterThan(50);
    expect(session.run()).toBe(1);
    expect(session.cache.parsed).toEqual([]);
    const file = path.join(dir, 'src', 'optional.ts');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('skip?: number;', 'skip?: number;\n  @IsOptional() @IsInt() take?: number;'),
    );
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(session.run()).toBe(1);
    expect(session.cache.parsed.map((f) => path.relative(dir, f))).toEqual([path.join('src', 'optional.ts')]);
    expect(fs.readFileSync(path.join(dir, 'src', 'onemodelcontext.facts.ts'), 'utf8')).toContain(
      "{ key: 'take', type: Number, optional: true },",
    );
    expect(out.filter((l) => l.includes('Wrote'))).toHaveLength(1);
  });
});
