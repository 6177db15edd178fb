import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Client } from '@modelcontextprotocol/client';
import {
  Complete,
  DefinitionError,
  Description,
  Field,
  Int32,
  McpServer,
  Param,
  Prompt,
  registerSourceFacts,
  RequestContext,
  Resource,
  Tool,
} from '../src';
import { McpModule } from '../src/nest';
import { connected } from './server/support';

class Forecast {
  @Field() city!: string;
  @Field({ type: Int32 }) days!: number;
}

class Tools {
  @Tool({ description: 'Greets someone.' })
  greet(@Description('Who to greet.') name: string, @Param({ type: Int32 }) times = 1): string {
    return `hello ${name}`.repeat(times);
  }

  @Tool({ readOnly: true })
  forecast(city: string, ctx: RequestContext, days: number = 3): Forecast {
    return Object.assign(new Forecast(), { city: `${city} (${ctx.protocolVersion === undefined ? 'no version' : 'versioned'})`, days });
  }
}

const server = (instance: object) => new McpServer({ name: 'tools', version: '1' }).add(instance);

/** The `tools/list` result as the client received it, as a JSON string. */
async function listingOf(instance: object): Promise<string> {
  const { client } = await connected(server(instance), 'legacy');
  return JSON.stringify(await client.listTools());
}

async function clientOf(instance: object): Promise<Client> {
  return (await connected(server(instance), 'legacy')).client;
}

describe('a subclass of a tool class (issue 37 item 8)', () => {
  it('lists exactly the tools of its base and calls them', async () => {
    class Sub extends Tools {}
    const base = await listingOf(new Tools());
    expect(base).toBe(
      '{"tools":[{"name":"greet","description":"Greets someone.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Who to greet."},' +
        '"times":{"type":"integer","minimum":-2147483648,"maximum":2147483647,"default":1}},"required":["name"],"additionalProperties":false}},' +
        '{"name":"forecast","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"number","default":3}},"required":["city"],"additionalProperties":false},' +
        '"outputSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["city","days"],"additionalProperties":false},' +
        '"annotations":{"readOnlyHint":true}}]}',
    );
    expect(await listingOf(new Sub())).toBe(base);
    const client = await clientOf(new Sub());
    expect(await client.callTool({ name: 'greet', arguments: { name: 'ada', times: 2 } })).toEqual({
      content: [{ type: 'text', text: 'hello adahello ada' }],
    });
    expect((await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).structuredContent).toEqual({
      city: 'Oslo (versioned)',
      days: 3,
    });
  });

  it('calls an override of a method body with the subclass instance as this, listed as the base declares it', async () => {
    class Loud extends Tools {
      readonly suffix = '!';
      override greet(name: string, times = 1): string {
        return `${super.greet(name, times).toUpperCase()}${this.suffix}`;
      }
    }
    expect(await listingOf(new Loud())).toBe(await listingOf(new Tools()));
    const client = await clientOf(new Loud());
    expect(await client.callTool({ name: 'greet', arguments: { name: 'ada' } })).toEqual({
      content: [{ type: 'text', text: 'HELLO ADA!' }],
    });
  });

  it('takes the declaration of a subclass that decorates an override again', async () => {
    class Renamed extends Tools {
      @Tool({ name: 'welcome', description: 'Welcomes someone.' })
      override greet(name: string): string {
        return `welcome ${name}`;
      }
    }
    const client = await clientOf(new Renamed());
    const listed = await client.listTools();
    // The subclass's declaration takes the place of the base's, in the base's order.
    expect(listed.tools.map((t) => t.name)).toEqual(['welcome', 'forecast']);
    expect(JSON.stringify(listed.tools[0])).toBe(
      '{"name":"welcome","description":"Welcomes someone.","inputSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}}',
    );
    expect(await client.callTool({ name: 'welcome', arguments: { name: 'ada' } })).toEqual({
      content: [{ type: 'text', text: 'welcome ada' }],
    });
  });

  it('inherits through a chain of three classes, each adding tools and overriding bodies', async () => {
    class A {
      @Tool() one(n: number): number {
        return n + 1;
      }
    }
    class B extends A {
      @Tool() two(text: string): string {
        return `${text}${text}`;
      }
    }
    class C extends B {
      override one(n: number): number {
        return n + 100;
      }
      @Tool() three(): string {
        return 'three';
      }
    }
    const client = await clientOf(new C());
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['one', 'two', 'three']);
    expect(JSON.stringify(listed.tools[0].inputSchema)).toBe(
      JSON.stringify((await (await clientOf(new A())).listTools()).tools[0].inputSchema),
    );
    expect(await client.callTool({ name: 'one', arguments: { n: 1 } })).toEqual({ content: [{ type: 'text', text: '101' }] });
    expect(await client.callTool({ name: 'two', arguments: { text: 'ab' } })).toEqual({ content: [{ type: 'text', text: 'abab' }] });
    expect(await client.callTool({ name: 'three', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'three' }] });
  });

  it('inherits resources, templates and prompts with their completions', async () => {
    class Catalogue {
      @Resource('shop://about', { description: 'About the shop' })
      about(): string {
        return 'We sell things.';
      }

      @Resource('shop://items/{id}')
      item(@Param({ type: Int32 }) id: number): string {
        return `item ${id}`;
      }

      @Prompt({ description: 'Describe a city' })
      describeCity(@Complete((typed) => ['Paris', 'Prague', 'Porto'].filter((c) => c.startsWith(typed))) city: string): string {
        return `Describe ${city}.`;
      }
    }
    class Shop extends Catalogue {
      override item(id: number): string {
        return `shop item ${id}`;
      }
    }
    const lists = async (instance: object) => {
      const { client } = await connected(server(instance), 'legacy');
      return JSON.stringify([await client.listResources(), await client.listResourceTemplates(), await client.listPrompts()]);
    };
    const base = await lists(new Catalogue());
    expect(base).toContain('"uriTemplate":"shop://items/{id}"');
    expect(base).toContain('"name":"describe_city"');
    expect(await lists(new Shop())).toBe(base);
    const client = await clientOf(new Shop());
    expect((await client.readResource({ uri: 'shop://about' })).contents).toEqual([
      { uri: 'shop://about', mimeType: 'text/plain', text: 'We sell things.' },
    ]);
    expect((await client.readResource({ uri: 'shop://items/7' })).contents).toEqual([
      { uri: 'shop://items/7', mimeType: 'text/plain', text: 'shop item 7' },
    ]);
    expect((await client.getPrompt({ name: 'describe_city', arguments: { city: 'Oslo' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Describe Oslo.' } },
    ]);
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'describe_city' }, argument: { name: 'city', value: 'P' } });
    expect(completed.completion.values).toEqual(['Paris', 'Prague', 'Porto']);
  });

  it('reads the generated facts of the declaring class when no design metadata was emitted', () => {
    // As under tsx or esbuild: the decorator runs without design:* metadata, and the facts describe the base.
    class Base {
      hello(name: string): string {
        return `hello ${name}`;
      }
    }
    Tool()(Base.prototype, 'hello', Object.getOwnPropertyDescriptor(Base.prototype, 'hello')!);
    registerSourceFacts(Base, { methods: [{ name: 'hello', description: 'Says hello.', params: [{ name: 'name', type: String }] }] });
    class Derived extends Base {
      override hello(name: string): string {
        return `hi ${name}`;
      }
    }
    expect(JSON.stringify(server(new Derived()).listTools())).toBe(JSON.stringify(server(new Base()).listTools()));
    expect(JSON.stringify(server(new Derived()).listTools())).toBe(
      '[{"name":"hello","description":"Says hello.","inputSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}}]',
    );
  });

  it('names the subclass and the declaring class in the problems of an inherited declaration', () => {
    class Broken {
      @Tool('bad name') a(): void {}
    }
    class Child extends Broken {}
    const add = () => server(new Child());
    expect(add).toThrow(DefinitionError);
    expect(add).toThrow("Child has 1 definition problem:\n  OMCG0008 Child.a (declared in Broken): the tool name 'bad name' is not valid");
  });
});

describe('a Nest provider that extends a tool class', () => {
  @Injectable()
  class Greeting {
    readonly word = 'bonjour';
  }

  @Injectable()
  class NestTools extends Tools {
    constructor(private readonly greeting: Greeting) {
      super();
    }
    override greet(name: string): string {
      return `${this.greeting.word} ${name}`;
    }
  }

  class Plain extends Tools {}

  it.each([
    ['with its own constructor and dependency', NestTools, 'bonjour ada'],
    ['without a decorator of its own', Plain, 'hello ada'],
  ] as const)('is added %s, listed as its base and called', async (_how, provider, text) => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'tools', version: '1', transport: 'none' })],
      providers: [Greeting, provider],
    }).compile();
    await moduleRef.init();
    const nest = moduleRef.get(McpServer);
    expect(JSON.stringify(nest.listTools())).toBe(JSON.stringify(server(new Tools()).listTools()));
    expect(await nest.callTool('greet', { name: 'ada' })).toEqual({ content: [{ type: 'text', text }] });
    await moduleRef.close();
  });
});
