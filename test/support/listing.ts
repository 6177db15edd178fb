import { McpServer, type QuickToolConfig } from '../../src';

/** The listing of the only (or named) tool of a decorated instance, as a JSON string. */
export function listingOf(instance: object, name?: string): string {
  const server = new McpServer({ name: 'test', version: '1' }).add(instance);
  const tools = server.listTools();
  const tool = name === undefined ? tools[0] : tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return JSON.stringify(tool);
}

/** The input schema of the only (or named) tool of a decorated instance. */
export function inputOf(instance: object, name?: string): string {
  return JSON.stringify(JSON.parse(listingOf(instance, name)).inputSchema);
}

/** The input schema the quick path lists for the same parameters. */
export function quickInputOf(config: QuickToolConfig): string {
  const server = new McpServer({ name: 'test', version: '1' }).tool('q', config, () => undefined);
  return JSON.stringify(server.listTools()[0].inputSchema);
}
