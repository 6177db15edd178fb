import { Module, type DynamicModule } from '@nestjs/common';
import { McpModule, type McpTransport } from 'onemodelcontext/nest';
import { DocketRepository } from './docket.repository';
import { DocketService } from './docket.service';

@Module({})
export class AppModule {
  /** The docket application, serving MCP over the app's HTTP adapter (`http`) or stdio. */
  static register(transport: McpTransport): DynamicModule {
    return {
      module: AppModule,
      imports: [McpModule.forRoot({ name: 'nest-docket', version: '1.0.0', transport, path: '/mcp' })],
      providers: [DocketRepository, DocketService],
    };
  }
}
