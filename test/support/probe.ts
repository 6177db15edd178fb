import { McpServer, type CallToolResult, type TypeHint } from '../../src';

/** A quick-path tool with one parameter `v` of the given hint that remembers what it received. */
export function probe(hint: TypeHint): (value: unknown) => Promise<{ result: CallToolResult; received: unknown }> {
  let received: unknown;
  const server = new McpServer({ name: 'probe', version: '1' }).tool('p', { params: { v: hint } }, ({ v }) => {
    received = v;
    return 'ok';
  });
  return async (value) => {
    received = undefined;
    const result = await server.callTool('p', { v: value });
    return { result, received };
  };
}

/** The text of a single-text-block result. */
export function textOf(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const block = result.content[0] as { type: string; text: string };
  expect(block.type).toBe('text');
  return block.text;
}
