import { Field, McpServer, Tool } from '../../src';
import { recordStrategy } from '../../src/invoke/reading/record-reader';

class Line {
  @Field() sku!: string;
  @Field() qty!: number;
}

class Tools {
  @Tool() line(line: Line): Line {
    return line;
  }
}

describe('where code generation is forbidden', () => {
  it('this project really forbids it', () => {
    expect(() => new Function('return 1')).toThrow(EvalError);
  });

  it('reads and writes records through the interpreted reader, with the same results', async () => {
    const server = new McpServer({ name: 't', version: '1' }).add(new Tools());
    const result = await server.callTool('line', { line: { sku: 'A', qty: 2 } });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"sku":"A","qty":2}' }], structuredContent: { sku: 'A', qty: 2 } });
    expect(recordStrategy()).toBe('interpreted');
    const refused = await server.callTool('line', { line: { sku: 'A', qty: 2, extra: 1 } });
    expect(refused).toEqual({
      content: [{ type: 'text', text: "Argument 'line.extra' is not valid. There is no such property." }],
      isError: true,
    });
  });
});
