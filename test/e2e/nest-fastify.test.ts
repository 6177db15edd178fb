import { Test } from '@nestjs/testing';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { McpServer } from '../../src';
import { AppModule } from '../../samples/nest-docket/src/app.module';
import { DocketRepository } from '../../samples/nest-docket/src/docket.repository';
import { DocketService } from '../../samples/nest-docket/src/docket.service';
import { connectClient, lastListedTools, textOf, type TestClient } from './support/clients';

/** The same sample on Nest's Fastify adapter: the module mounts on it through reply.hijack(). */
jest.setTimeout(60_000);

describe.each([
  ['v1 client at 2025-11-25', { client: 'v1', version: '2025-11-25' } as const],
  ['v2 client in auto mode (2026-07-28)', { client: 'v2' } as const],
])('nest-docket on Fastify, %s', (_name, flavour) => {
  let app: NestFastifyApplication;
  let client: TestClient;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.register('http')] }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    client = await connectClient(flavour, 'http', new URL(`${await app.getUrl()}/mcp`));
  });

  afterAll(async () => {
    await client.close();
    await app.close();
  });

  it('lists the tools as outside Nest and calls one', async () => {
    await client.listTools();
    const outside = new McpServer({ name: 'nest-docket', version: '1.0.0' }).add(new DocketService(new DocketRepository()));
    expect(lastListedTools(client.received)).toBe(JSON.stringify(outside.listTools()));
    expect(textOf(await client.callTool('list_open_cases', {}))).toBe('2026-CV-0001 Acme v. Widget (urgent)');
    expect(textOf(await client.callTool('get_docket', { id: 0 }))).toBe(
      "Argument 'id' is not valid. Expected a whole number from 1 to 1000000, such as 1.",
    );
    expect(textOf(await client.callTool('get_docket', { id: 7 }))).toBe("The call to tool 'get_docket' was refused.");
    expect(textOf(await client.callTool('get_docket', { id: 99 }))).toBe('There is no case 99.');
  });
});
