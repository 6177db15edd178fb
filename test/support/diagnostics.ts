import { DefinitionError, McpServer, type Diagnostic } from '../../src';

/** The diagnostics of a class the server refuses at `add`: it must throw a `DefinitionError` and register nothing. */
export function diagnosticsOf(instance: object): readonly Diagnostic[] {
  const server = new McpServer({ name: 't', version: '1' }, { logger: false });
  let caught: unknown;
  try {
    server.add(instance);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DefinitionError);
  expect(server.listTools()).toEqual([]);
  return (caught as DefinitionError).diagnostics;
}

/** The same diagnostics, one line each: `OMCG0002 T.r: message`. */
export function diagnosticLinesOf(instance: object): string[] {
  return diagnosticsOf(instance).map((d) => `${d.code} ${d.where}: ${d.message}`);
}
