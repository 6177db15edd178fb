import { Complete, DefinitionError, McpServer, Prompt, Resource, RequestContext, Tool, type Icon } from '../../src';
import { diagnosticLinesOf } from '../support/diagnostics';

const hostile = (value: unknown) => value as Icon[];

describe('OMCG0014: listing metadata refused at definition time', () => {
  it('icons that are not https:, http: or data:image URIs, unknown keys, bad sizes, themes and types', () => {
    class T {
      @Tool({
        icons: hostile([
          { src: 'javascript:alert(1)' },
          { src: 'file:///etc/passwd' },
          { src: 'data:text/html;base64,PGgxPg==' },
          { src: 'https://example.com/a.png', mimeType: 'text/html', sizes: ['big'], theme: 'blue', onload: 'x' },
          'https://example.com/b.png',
        ]),
      })
      a(): void {}
    }
    expect(diagnosticLinesOf(new T())).toEqual([
      'OMCG0014 T.a: icons[0] has a javascript: src; icons are https:, http: or data:image URIs.',
      'OMCG0014 T.a: icons[1] has a file: src; icons are https:, http: or data:image URIs.',
      'OMCG0014 T.a: icons[2] has a data: URI that is not data:image/...;base64,<base64>.',
      "OMCG0014 T.a: icons[3] has unknown key(s) 'onload'.",
      "OMCG0014 T.a: icons[3] has mimeType 'text/html', not an image/... type.",
      `OMCG0014 T.a: icons[3] has sizes ["big"]; give 1 to 16 sizes such as '48x48' or 'any'.`,
      "OMCG0014 T.a: icons[3] has theme 'blue', not 'light' or 'dark'.",
      "OMCG0014 T.a: icons[4] is 'https://example.com/b.png', not { src, mimeType?, sizes?, theme? }.",
    ]);
  });

  it('oversized icons: too many, an inline image too large, an empty list', () => {
    const many = Array.from({ length: 17 }, () => ({ src: 'https://example.com/i.png' }));
    const huge = `data:image/png;base64,${'A'.repeat(70_000)}`;
    class T {
      @Tool({ icons: many }) a(): void {}
      @Prompt({ icons: [{ src: huge }] }) b(): string {
        return '';
      }
      @Resource('x://c', { icons: [] }) c(): string {
        return '';
      }
    }
    expect(diagnosticLinesOf(new T())).toEqual([
      'OMCG0014 T.a: icons is a list of 17.',
      'OMCG0014 T.b: icons[0] has a data: URI of 70022 characters, more than 65536; it would be sent in every listing.',
      'OMCG0014 T.c: icons is a list of 0.',
    ]);
  });

  it('resource size and annotations out of their ranges', () => {
    class T {
      @Resource('x://a', { size: -1, annotations: { audience: ['user', 'user'], priority: 2, lastModified: 'yesterday' } }) a(): string {
        return '';
      }
      @Resource('x://{id}', { size: 10, annotations: { audience: ['robot'] as never, lastModified: new Date('nope') } }) b(
        id: string,
      ): string {
        return id;
      }
      @Resource('x://c', { size: 1.5, annotations: { priority: Number.NaN, color: 'red' } as never }) c(): string {
        return '';
      }
    }
    expect(diagnosticLinesOf(new T())).toEqual([
      'OMCG0014 T.a: size is -1.',
      'OMCG0014 T.a: annotations.audience is ["user","user"].',
      'OMCG0014 T.a: annotations.priority is 2.',
      "OMCG0014 T.a: annotations.lastModified is 'yesterday'.",
      'OMCG0014 T.b: size is given for a resource template; a template has no one size.',
      'OMCG0014 T.b: annotations.audience is ["robot"].',
      'OMCG0014 T.b: annotations.lastModified is an object.',
      'OMCG0014 T.c: size is 1.5.',
      "OMCG0014 T.c: annotations has unknown key(s) 'color'.",
      'OMCG0014 T.c: annotations.priority is NaN.',
    ]);
  });

  it('cache hints that are not { ttlMs, scope }', () => {
    class T {
      @Tool({ cache: { ttlMs: -5 } }) a(): void {}
      @Tool({ cache: { ttlMs: 1.5, scope: 'shared' as never } }) b(): void {}
      @Prompt({ cache: { ttl: 5 } as never }) c(): string {
        return '';
      }
      @Resource('x://d', { cache: 60 as never }) d(): string {
        return '';
      }
    }
    expect(diagnosticLinesOf(new T())).toEqual([
      'OMCG0014 T.a: cache.ttlMs is -5.',
      'OMCG0014 T.b: cache.ttlMs is 1.5.',
      "OMCG0014 T.b: cache.scope is 'shared'.",
      "OMCG0014 T.c: cache has unknown key(s) 'ttl'.",
      'OMCG0014 T.c: cache.ttlMs is undefined.',
      'OMCG0014 T.d: cache is 60, not { ttlMs, scope? }.',
    ]);
  });

  it('completions for arguments that do not exist, twice, not functions, or on tools and context parameters', () => {
    const cities = () => ['Paris'];
    class T {
      @Prompt({ complete: { town: cities, city: cities } }) a(@Complete(cities) city: string): string {
        return city;
      }
      @Resource('x://{id}', { complete: { id: 'Paris' as never } }) b(id: string): string {
        return id;
      }
      @Tool() c(@Complete(cities) city: string): string {
        return city;
      }
      @Prompt() d(@Complete(cities) ctx: RequestContext): string {
        return String(ctx.requestId);
      }
    }
    expect(diagnosticLinesOf(new T())).toEqual([
      "OMCG0014 T.a, complete 'town': there is no argument of that name.",
      "OMCG0014 T.a, complete 'city': the parameter also has @Complete.",
      "OMCG0014 T.b, complete 'id': the completion is 'Paris', not a function.",
      'OMCG0014 T.c, parameter 1: @Complete is on a tool parameter; MCP completes only prompt arguments and resource-template variables.',
      'OMCG0014 T.d, parameter 1: @Complete is on a parameter that is not an argument.',
    ]);
  });

  it('@Complete without a function is refused where it is written', () => {
    expect(() => Complete('Paris' as never)).toThrow('@Complete() takes a function of the typed value');
  });

  it('the server info and the server-wide cache hint are checked when the server is made', () => {
    const make = () =>
      new McpServer({ name: 's', version: '1', icons: [{ src: 'ftp://example.com/i.png' }] }, { cache: { ttlMs: Infinity } });
    expect(make).toThrow(DefinitionError);
    expect(make).toThrow(
      'new McpServer() has 2 definition problems:\n' +
        '  OMCG0014 the server info: icons[0] has a ftp: src; icons are https:, http: or data:image URIs.',
    );
  });

  it('a caller changing its options after decorating changes nothing', () => {
    const icons = [{ src: 'https://example.com/a.png', sizes: ['16x16'] }];
    class T {
      @Tool({ icons }) a(): void {}
    }
    icons[0].src = 'javascript:alert(1)';
    icons[0].sizes.push('junk');
    const server = new McpServer({ name: 't', version: '1' }, { logger: false }).add(new T());
    expect(JSON.stringify(server.listTools()[0].icons)).toBe(JSON.stringify([{ src: 'https://example.com/a.png', sizes: ['16x16'] }]));
  });
});
