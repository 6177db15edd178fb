import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule, type McpModuleOptions } from '../../src/nest';

/**
 * Real Nest applications (Express) with the module at `/mcp` and the given providers, each listening on a free
 * loopback port; `close()` closes every one made.
 */
export class NestApps {
  private readonly apps: INestApplication[] = [];

  constructor(
    private readonly name: string,
    private readonly providers: readonly (new (...args: never[]) => unknown)[],
  ) {}

  /** Starts an application with these module options; resolves with its MCP endpoint's URL. */
  async serve(options: Partial<McpModuleOptions>): Promise<string> {
    const imports = [McpModule.forRoot({ name: this.name, version: '1', ...options })];
    const moduleRef = await Test.createTestingModule({ imports, providers: [...this.providers] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    this.apps.push(app);
    await app.listen(0, '127.0.0.1');
    return `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/mcp`;
  }

  close(): Promise<unknown> {
    return Promise.all(this.apps.splice(0).map((app) => app.close()));
  }
}
