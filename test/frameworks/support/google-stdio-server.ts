import 'reflect-metadata';
import { McpServer } from '../../../src';
import { Everything } from '../../profiles/fixture';

/**
 * The fixture's `Everything` over stdio, with the listing named by the first argument: the server ADK's
 * `MCPToolset` starts as a child process (test/frameworks/google-adk-stdio.test.ts).
 */
const listing = process.argv[process.argv.length - 1] === 'gemini' ? 'gemini' : 'exact';
void new McpServer({ name: 'orders', version: '1.0.0' }, { logger: false, listing }).add(new Everything()).serveStdio();
