import { ArrayOf, Field, McpServer, Tool, type McpLogger } from '../../src';

// Issue 11, no silent loss: an async tool without `returns` and without facts loses its outputSchema and
// structured result; the server says so through its logger when the tool is added, naming both fixes.
class Note {
  @Field() title!: string;
}

class Notes {
  @Tool() async latest(): Promise<Note> {
    return Object.assign(new Note(), { title: 'T' });
  }
  @Tool({ returns: Note }) async declared(): Promise<Note> {
    return Object.assign(new Note(), { title: 'T' });
  }
  @Tool() now(): Note {
    return Object.assign(new Note(), { title: 'T' });
  }
}

// The same for results whose element types TypeScript erased (arrays, sets, maps), but not for `Object`,
// which is also what `any`, `unknown` and unions become.
class Lists {
  @Tool() all(): Note[] {
    return [];
  }
  @Tool() tags(): Set<string> {
    return new Set();
  }
  @Tool() byTitle(): Map<string, Note> {
    return new Map();
  }
  @Tool({ returns: ArrayOf(Note) }) declared(): Note[] {
    return [];
  }
  @Tool() anything(): unknown {
    return 1;
  }
}

function recorder(): { logger: McpLogger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  return { logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') }, lines };
}

describe('definition-time warnings', () => {
  it('warns once about an async tool without returns, naming the tool and both fixes', () => {
    const { logger, lines } = recorder();
    new McpServer({ name: 't', version: '1' }, { logger }).add(new Notes());
    expect(lines).toEqual([
      "warn: Notes.latest (tool 'latest') returns a Promise whose type TypeScript erased: it has no outputSchema and a record result is not sent as structuredContent. " +
        'Declare it with @Tool({ returns: Type }), or run onemodelcontext generate and import the facts module.',
    ]);
  });

  it('warns about arrays, sets and maps without returns, and not about Object (any, unknown, unions)', () => {
    const { logger, lines } = recorder();
    new McpServer({ name: 't', version: '1' }, { logger }).add(new Lists());
    const fixes =
      'it has no outputSchema and a record result is not sent as structuredContent. Declare it with @Tool({ returns: Type }), or run onemodelcontext generate and import the facts module.';
    expect(lines).toEqual([
      `warn: Lists.all (tool 'all') returns an Array whose element type TypeScript erased: ${fixes}`,
      `warn: Lists.tags (tool 'tags') returns a Set whose element type TypeScript erased: ${fixes}`,
      `warn: Lists.byTitle (tool 'by_title') returns a Map whose element type TypeScript erased: ${fixes}`,
    ]);
  });

  it('is silent with logger: false', () => {
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      new McpServer({ name: 't', version: '1' }, { logger: false }).add(new Notes());
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });
});
