export { McpModule } from './mcp.module';
export { MCP_MODULE_OPTIONS } from './constants';
export { StderrLogger } from './stderr-logger';
export type { McpModuleOptions, McpModuleAsyncOptions, McpTransport } from './options';
