import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { nginxConfig } from './nginx';

/**
 * `npm start`: Redis, three instances (a, b, c) and nginx in front of them, all on 127.0.0.1, all stopped
 * with Ctrl+C. Needs redis-server and nginx on the PATH (Debian: apt-get install redis-server nginx).
 * Ports: NGINX_PORT (default 8080), 3001-3003 for the instances, REDIS_PORT (default 6390).
 */

const NGINX_PORT = Number(process.env.NGINX_PORT ?? 8080);
const REDIS_PORT = Number(process.env.REDIS_PORT ?? 6390);
const ROUTES = ['a', 'b', 'c'];
const SECRET = process.env.MCP_STATE_SECRET ?? randomBytes(32).toString('hex');

const children: ChildProcess[] = [];
const run = mkdtempSync(join(tmpdir(), 'mcp-cluster-'));

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  child.once('error', (error) => {
    console.error(`${name} could not start (${error.message}); is it installed?`);
    stop(1);
  });
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited (${signal ?? code})`);
  });
  children.push(child);
}

let stopping = false;
function stop(code = 0): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => {
    rmSync(run, { recursive: true, force: true });
    process.exit(code);
  }, 1500);
}

process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());

start('redis-server', 'redis-server', [
  '--port',
  String(REDIS_PORT),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
  '--dir',
  run,
]);
ROUTES.forEach((route, i) =>
  start(`instance ${route}`, process.execPath, [join(__dirname, 'main.js')], {
    PORT: String(3001 + i),
    MCP_ROUTE: route,
    MCP_STATE_SECRET: SECRET,
    REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
  }),
);
const upstreams = ROUTES.map((route, i) => ({ route, port: 3001 + i }));
writeFileSync(
  join(run, 'nginx.conf'),
  nginxConfig({ prefix: run, port: NGINX_PORT, upstreams, user: process.getuid?.() === 0 ? userInfo().username : undefined }),
);
start('nginx', process.env.NGINX ?? 'nginx', ['-p', run, '-c', join(run, 'nginx.conf'), '-e', join(run, 'error.log')]);

console.log(`
MCP endpoint through nginx:  http://127.0.0.1:${NGINX_PORT}/mcp
Instances:                   ${upstreams.map((u) => `${u.route} http://127.0.0.1:${u.port}/mcp`).join(', ')}
Health:                      http://127.0.0.1:3001/readyz (and 3002, 3003)
Try: call whereami a few times (round robin), confirm (rounds on different instances), countdown and
stop its instance with kill -TERM <pid> (the call completes, new calls go elsewhere). Ctrl+C stops everything.
`);
