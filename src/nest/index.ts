// First: without NestJS installed, this import throws one sentence naming the packages to install.
import './peer-check';

export { McpModule } from './mcp.module';
export { MCP_MODULE_OPTIONS } from './constants';
export { StderrLogger } from './stderr-logger';
export { NestMcpLogger } from './nest-logger';
export { McpExecutionContext, MCP_CONTEXT_TYPE, type McpContextType, type McpHostArguments } from './mcp-execution-context';
export type { McpModuleOptions, McpModuleAsyncOptions, McpTransport, McpInterceptor } from './options';
