import 'reflect-metadata';
import { Injectable, ValidationPipe, type INestApplication } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { McpServer, Param, Tool } from '../../src';
import { McpModule, type McpModuleOptions } from '../../src/nest';
import { textOf } from '../support/probe';

class Greeting {
  @IsString() name!: string;
}

const received: unknown[] = [];

@Injectable()
class GreetTools {
  @Tool() greet(@Param({ name: 'greeting', type: Greeting }) greeting: Greeting): string {
    received.push(greeting);
    return `hello ${greeting.name}`;
  }
}

const apps: INestApplication[] = [];
afterEach(async () => {
  received.length = 0;
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A real Nest 12 application with the module (transport `none`), set up by `configure` before `init()`. */
async function start(
  options: Partial<McpModuleOptions>,
  configure: (app: INestApplication) => void,
  providers: unknown[] = [],
): Promise<McpServer> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'greeter', version: '1', transport: 'none', ...options })],
    providers: [GreetTools, ...(providers as never[])],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  apps.push(app);
  configure(app);
  await app.init();
  return app.get(McpServer);
}

const property = (server: McpServer) =>
  JSON.stringify((server.listTools()[0].inputSchema as { properties: Record<string, unknown> }).properties.greeting);

describe("the app's global ValidationPipe sets the validation options", () => {
  it('app.useGlobalPipes(new ValidationPipe({ whitelist: true })): unknown properties are stripped, and listed as allowed', async () => {
    const server = await start({}, (app) => app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true })));
    expect(property(server)).toBe('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}');
    expect(textOf(await server.callTool('greet', { greeting: { name: 'Ada', admin: true } }))).toBe('hello Ada');
    expect(received).toEqual([Object.assign(new Greeting(), { name: 'Ada' })]);
  });

  it('an APP_PIPE ValidationPipe counts too', async () => {
    const pipe = { provide: APP_PIPE, useValue: new ValidationPipe({ whitelist: true }) };
    const server = await start({}, () => undefined, [pipe]);
    expect(property(server)).toBe('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}');
    expect(textOf(await server.callTool('greet', { greeting: { name: 'Ada', admin: true } }))).toBe('hello Ada');
    expect(received).toEqual([Object.assign(new Greeting(), { name: 'Ada' })]);
  });

  it('a ValidationPipe with forbidNonWhitelisted: closed records', async () => {
    const server = await start({}, (app) => app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true })));
    expect(property(server)).toBe(
      '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}',
    );
    expect(textOf(await server.callTool('greet', { greeting: { name: 'Ada', admin: true } }))).toBe(
      "Argument 'greeting.admin' is not valid. There is no such property.",
    );
  });

  it('a pipe without whitelist: unknown properties reach the method as sent', async () => {
    const server = await start({}, (app) => app.useGlobalPipes(new ValidationPipe()));
    expect(property(server)).toBe('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}');
    expect(textOf(await server.callTool('greet', { greeting: { name: 'Ada', admin: true } }))).toBe('hello Ada');
    expect(received).toEqual([Object.assign(new Greeting(), { name: 'Ada', admin: true })]);
  });

  it("McpModule.forRoot({ validation }) wins over the app's pipe", async () => {
    const server = await start({ validation: { whitelist: true, forbidNonWhitelisted: true } }, (app) =>
      app.useGlobalPipes(new ValidationPipe()),
    );
    expect(textOf(await server.callTool('greet', { greeting: { name: 'Ada', admin: true } }))).toBe(
      "Argument 'greeting.admin' is not valid. There is no such property.",
    );
  });

  it('without a ValidationPipe, the default: closed records', async () => {
    const server = await start({}, () => undefined);
    expect(property(server)).toBe(
      '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}',
    );
  });
});
