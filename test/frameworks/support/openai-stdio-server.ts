import 'reflect-metadata';
import { McpServer } from '../../../src';
import { Everything } from '../../profiles/fixture';

/**
 * The fixture's `Everything` over stdio, under the listing named by the last argument ('openai-strict' or 'exact'):
 * the server the Agents SDK's `MCPServerStdio` starts as a child process (test/frameworks/openai-agents-stdio.test.ts).
 */
const listing = process.argv[process.argv.length - 1] === 'openai-strict' ? 'openai-strict' : 'exact';
void new McpServer({ name: 'orders', version: '1.0.0' }, { logger: false, listing }).add(new Everything()).serveStdio();
