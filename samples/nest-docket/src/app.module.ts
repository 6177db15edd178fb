import { Module, type DynamicModule } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { McpModule, type McpTransport } from 'onemodelcontext/nest';
import { DocketRepository } from './docket.repository';
import { TimingInterceptor } from './docket.enhancers';
import { DocketService } from './docket.service';

@Module({})
export class AppModule {
  /**
   * The docket application, serving MCP over the app's HTTP adapter (`http`) or stdio; every MCP call is
   * timed by a global interceptor, as every route would be.
   */
  static register(transport: McpTransport): DynamicModule {
    return {
      module: AppModule,
      imports: [McpModule.forRoot({ name: 'nest-docket', version: '1.0.0', transport, path: '/mcp' })],
      providers: [DocketRepository, DocketService, { provide: APP_INTERCEPTOR, useClass: TimingInterceptor }],
    };
  }
}
