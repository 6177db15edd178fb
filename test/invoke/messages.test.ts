import { McpServer, MinLength, Param, Range, Tool } from '../../src';
import { textOf } from '../support/probe';

// Issue 11: messages a newcomer read. An open range end is left out ("at least 0", not "from 0 to
// Infinity") and a count of one is singular ("1 character").
class Messages {
  @Tool() positive(@Param({ type: Number }) n: number, @MinLength(1) tags: string): string {
    return `${n} ${tags}`;
  }
}

describe('argument messages', () => {
  const server = new McpServer({ name: 't', version: '1' }).add(new Messages());

  it('says "at least 0" for a range open at the top', () => {
    class OpenTop {
      @Tool() f(@Range(0, Infinity) n: number): number {
        return n;
      }
    }
    const s = new McpServer({ name: 't', version: '1' }).add(new OpenTop());
    return s
      .callTool('f', { n: -1 })
      .then((r) => expect(textOf(r)).toBe("Argument 'n' is not valid. Expected a number at least 0, such as 0."));
  });

  it('says "1 character" in the singular', async () => {
    expect(textOf(await server.callTool('positive', { n: 1, tags: '' }))).toBe(
      'Argument \'tags\' is not valid. Expected at least 1 character, such as "text".',
    );
  });
});
