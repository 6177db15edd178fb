import '../fixtures/documented/src/onemodelcontext.facts';
import { ArrayOf, Description, DictionaryOf, Field, Nullable, Param, SetOf, StringLiterals, Tool } from '../../src';
import { memberRecordsOf, type MemberRecordOf } from '../../src/decorators/metadata';
import { methodFactsOf } from '../../src/facts/registry';
import { Problems } from '../../src/schema/diagnostics';
import { promptFromMethod } from '../../src/schema/members/prompts';
import { skillFromMethod } from '../../src/schema/members/skills';
import { Rows } from '../fixtures/documented/src/rows';
import { Color, Mixed, Size } from '../fixtures/documented/src/shapes';
import { Explicit, Weather } from '../fixtures/documented/src/weather';
import { fixtureFile, run } from '../support/generate';
import { listingOf } from '../support/listing';

class P {
  @Description('Horizontal, in Point units.') @Field() x!: number;
  @Description('Vertical.') @Field() y!: number;
}
class L {
  @Field() sku!: string;
  @Field() qty!: number;
}
class O {
  @Description("The order's `id`.") @Field() id!: string;
  @Field({ optional: true }) note?: string;
  @Field({ type: Date, optional: true }) due: Date | undefined;
  @Field([L]) lines!: L[];
  @Field([String]) tags: string[] = [];
  // Compiled, an imported enum default reads `shapes_1.Color.Green`, which the compiled-source reader does not follow.
  @Field({ type: Color, default: Color.Green }) status: Color = Color.Green;
  @Field() priority: number = 1;
  @Field() label: string = 'none';
  @Field(StringLiterals('metric', 'imperial')) unit: 'metric' | 'imperial' = 'metric';
  @Field(Nullable(DictionaryOf(String))) meta!: Record<string, string> | null;
  @Field(DictionaryOf(Number)) counts!: Map<string, number>;
  @Field(SetOf(String)) seen!: Set<string>;
}
class B {
  @Description('From the base.') @Field() id!: string;
}
class D extends B {
  @Field() name!: string;
}

/** The fixture's `Rows`, written the way the runtime needs it without generated facts. */
class ExplicitRows {
  @Tool() boolean(v: boolean): void {}
  @Tool() number(v: number): void {}
  @Tool() bigint(v: bigint): void {}
  @Tool() string(v: string): void {}
  @Tool() date(v: Date): void {}
  @Tool() url(v: URL): void {}
  @Tool() uint8array(v: Uint8Array): void {}
  @Tool() buffer(v: Buffer): void {}
  @Tool() numericEnum(@Param({ type: Color }) v: Color): void {}
  @Tool() stringEnum(@Param({ type: Size }) v: Size): void {}
  @Tool() mixedEnum(@Param({ type: Mixed }) v: Mixed): void {}
  @Tool() nullableString(@Param({ type: Nullable(String) }) v: string | null): void {}
  @Tool() nullableNumber(@Param({ type: Number, nullable: true }) v: number | null): void {}
  @Tool() nullableEnum(@Param({ type: Nullable(Color) }) v: Color | null): void {}
  @Tool() nullableRecord(@Param({ type: Nullable(P) }) v: P | null): void {}
  @Tool() arrayOfString(@Param({ type: [String] }) v: string[]): void {}
  @Tool() readonlyArray(@Param({ type: ArrayOf(Number) }) v: readonly number[]): void {}
  @Tool() genericArray(@Param({ type: [Boolean] }) v: Array<boolean>): void {}
  @Tool() arrayOfNullableString(@Param({ type: [Nullable(String)] }) v: (string | null)[]): void {}
  @Tool() nullableArrayOfString(@Param({ type: Nullable([String]) }) v: string[] | null): void {}
  @Tool() setOfString(@Param({ type: SetOf(String) }) v: Set<string>): void {}
  @Tool() dictionaryOfNumber(@Param({ type: DictionaryOf(Number) }) v: Record<string, number>): void {}
  @Tool() indexSignature(@Param({ type: DictionaryOf(Boolean) }) v: { [key: string]: boolean }): void {}
  @Tool() mapOfNumber(@Param({ type: DictionaryOf(Number) }) v: Map<string, number>): void {}
  @Tool() dictionaryOfArray(@Param({ type: DictionaryOf([Date]) }) v: Record<string, Date[]>): void {}
  @Tool() record(v: P): void {}
  @Tool() arrayOfRecord(@Param({ type: [P] }) v: P[]): void {}
  @Tool() literalUnion(@Param({ type: StringLiterals('metric', 'imperial') }) v: 'metric' | 'imperial'): void {}
  @Tool() nullableLiteralUnion(@Param({ type: Nullable(StringLiterals('b', 'a')) }) v: 'b' | 'a' | null): void {}
  @Tool() optional(@Param({ optional: true }) v?: string): void {}
  @Tool() undefinedUnion(@Param({ type: String, optional: true }) v: string | undefined): void {}
  @Tool() literalDefault(v: number = 3): void {}
  @Tool() constDefault(@Param({ default: 3 }) v: number): void {}
  @Tool() enumDefault(@Param({ type: Color, default: Color.Green }) v: Color = Color.Green): void {}
  @Tool() recordProperties(v: O): void {}
  @Tool() inheritedProperties(v: D): void {}
  @Tool({ returns: P }) async promiseRecord(): Promise<P> {
    return new P();
  }
  @Tool({ returns: Nullable(P) }) async promiseNullableRecord(): Promise<P | null> {
    return null;
  }
  @Tool({ returns: DictionaryOf(Number) }) async promiseDictionary(): Promise<Record<string, number>> {
    return {};
  }
}

class ExplicitWeather {
  @Tool()
  @Description('Gets the forecast for Weather cities, see Weather.getForecast and `a  b`. A second paragraph.')
  getForecast(@Description('The city, by name.') city: string, @Description('How many days.') days: number = 3): string {
    return `${city} ${days}`;
  }
}

const toolNames = Object.getOwnPropertyNames(Rows.prototype).filter((n) => n !== 'constructor');

describe('onemodelcontext generate on a project with doc comments and no hints (issue 6)', () => {
  it('writes exactly the committed facts module, so the fixture is what the command makes', () => {
    const result = run('documented', ['generate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.written.size).toBe(0);
    expect(result.stdout).toBe('Kept src/onemodelcontext.facts.ts: facts of 8 classes.');
  });

  it('covers every row the fixture declares', () => {
    expect(toolNames).toHaveLength(39);
    expect(Object.getOwnPropertyNames(ExplicitRows.prototype).filter((n) => n !== 'constructor')).toEqual(toolNames);
  });

  it.each(toolNames)('lists %s as the same method written with explicit hints does, byte for byte', (name) => {
    const tool = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    expect(listingOf(new Rows(), tool)).toBe(listingOf(new ExplicitRows(), tool));
  });

  it.each([
    ['literal_union', '{"type":"string","enum":["metric","imperial"]}'],
    ['nullable_literal_union', '{"type":["string","null"],"enum":["b","a",null]}'],
    ['map_of_number', '{"type":"object","additionalProperties":{"type":"number"}}'],
    ['enum_default', '{"type":"string","enum":["Red","Green","Blue"],"default":"Green"}'],
    ['const_default', '{"type":"number","default":3}'],
  ])('writes %s from the source type alone', (tool, fragment) => {
    expect(JSON.stringify(JSON.parse(listingOf(new Rows(), tool)).inputSchema.properties.v)).toBe(fragment);
  });

  it('lists undecorated record properties in declaration order, with doc comments, optionality and literal defaults', () => {
    expect(JSON.stringify(JSON.parse(listingOf(new Rows(), 'record_properties')).inputSchema.properties.v)).toBe(
      '{"type":"object","properties":{"id":{"type":"string","description":"The order\'s `id`."},"note":{"type":"string"},' +
        '"due":{"type":"string","format":"date-time"},"lines":{"type":"array","items":{"type":"object","properties":' +
        '{"sku":{"type":"string"},"qty":{"type":"number"}},"required":["sku","qty"],"additionalProperties":false}},' +
        '"tags":{"type":"array","items":{"type":"string"}},"status":{"type":"string","enum":["Red","Green","Blue"],"default":"Green"},' +
        '"priority":{"type":"number","default":1},"label":{"type":"string","default":"none"},' +
        '"unit":{"type":"string","enum":["metric","imperial"],"default":"metric"},' +
        '"meta":{"type":["object","null"],"additionalProperties":{"type":"string"}},' +
        '"counts":{"type":"object","additionalProperties":{"type":"number"}},"seen":{"type":"array","items":{"type":"string"},"uniqueItems":true}},' +
        '"required":["id","lines","meta","counts","seen"],"additionalProperties":false}',
    );
  });

  it('describes a tool and its parameters from JSDoc as @Description does', () => {
    expect(listingOf(new Weather())).toBe(listingOf(new ExplicitWeather()));
  });

  it('renders links as their name or label, keeps inline code as written and collapses whitespace', () => {
    expect(JSON.parse(listingOf(new Weather())).description).toBe(
      'Gets the forecast for Weather cities, see Weather.getForecast and `a  b`. A second paragraph.',
    );
  });

  it('describes a prompt and its arguments from JSDoc too', () => {
    expect(methodFactsOf(Weather, 'write')).toEqual({
      name: 'write',
      description: 'A prompt.',
      params: [{ name: 'topic', description: 'What to write about.', type: String }],
    });
    const record = memberRecordsOf(Weather).find((m): m is MemberRecordOf<'prompt'> => m.key === 'write' && m.kind === 'prompt')!;
    const prompt = promptFromMethod(Weather, record, new Problems());
    expect([prompt?.description, prompt?.params[0].description]).toEqual(['A prompt.', 'What to write about.']);
  });

  it("describes a @Skill from its doc comment, written into the skill's frontmatter", () => {
    expect(methodFactsOf(Weather, 'readingForecasts')).toEqual({
      name: 'readingForecasts',
      description: 'How to read a forecast: the units, and what the days mean.',
      params: [],
    });
    const record = memberRecordsOf(Weather).find((m): m is MemberRecordOf<'skill'> => m.key === 'readingForecasts' && m.kind === 'skill')!;
    const problems = new Problems();
    const skill = skillFromMethod(Weather, record, problems);
    expect([skill?.name, skill?.description, problems.all]).toEqual([
      'reading-forecasts',
      'How to read a forecast: the units, and what the days mean.',
      [],
    ]);
  });

  it('lets the description option win over the doc comment', () => {
    expect(JSON.parse(listingOf(new Explicit(), 'option')).description).toBe('From the option.');
  });

  it('lets @Description and explicit hints win over doc comments and declared types', () => {
    expect(listingOf(new Explicit(), 'decorated')).toBe(
      '{"name":"decorated","description":"From @Description.","inputSchema":{"type":"object","properties":' +
        '{"city":{"type":"string","description":"From @Description."},' +
        '"n":{"type":"integer","minimum":-2147483648,"maximum":2147483647},' +
        '"ids":{"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647}}},' +
        '"required":["city","n","ids"],"additionalProperties":false}}',
    );
  });

  it('commits a module that imports the classes it describes', () => {
    expect(fixtureFile('documented', 'src/onemodelcontext.facts.ts')).toContain("import { Rows } from './rows';");
  });
});
