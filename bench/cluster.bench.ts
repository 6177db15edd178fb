import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, createServer } from 'node:net';
import { availableParallelism, tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { nginxConfig } from '../samples/cluster/src/nginx';
import { validOrder } from './order';

/**
 * Issue 17: throughput of one versus three instances behind nginx on this machine, with 2026-07-28 tools/call
 * requests (stateless, so round robin spreads them), a fixed number of concurrent requests for a fixed time.
 * Every process shares the machine's cores with the load generator and nginx, so the ratio says what
 * running more processes buys here, not on a machine with a core per instance.
 */

const CONCURRENCY = 32;
const WARM_MS = 1500;
const MEASURE_MS = 4000;

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function executable(name: string): string | undefined {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  return folders.map((f) => join(f, name)).find((p) => existsSync(p));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nothing listens on ${port}`);
}

function startInstance(route: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'http-instance.js'), route], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve({ port: Number(match[1]), child });
    });
    child.once('exit', (code) => reject(new Error(`instance ${route} exited with ${code}`)));
  });
}

async function startNginx(nginx: string, upstreams: { route: string; port: number }[]): Promise<{ port: number; stop: () => void }> {
  const port = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'omc-bench-nginx-'));
  const user = process.getuid?.() === 0 ? userInfo().username : undefined;
  writeFileSync(join(prefix, 'nginx.conf'), nginxConfig({ prefix, port, upstreams, user }));
  const child = spawn(nginx, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], { stdio: 'ignore' });
  children.add(child);
  await listening(port);
  return {
    port,
    stop: () => {
      child.kill('SIGQUIT');
      setTimeout(() => rmSync(prefix, { recursive: true, force: true }), 500);
    },
  };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Requests per second for MEASURE_MS after WARM_MS, CONCURRENCY requests in flight at all times. */
async function throughput(port: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'place_order', arguments: validOrder(), _meta: META } });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'place_order',
    host: `127.0.0.1:${port}`,
  };
  const call = () =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d));
        res.on('end', () => (res.statusCode === 200 && text.includes('"result"') && !text.includes('"isError":true') ? resolve() : reject(new Error(`${res.statusCode} ${text.slice(0, 300)}`))));
      });
      req.once('error', reject);
      req.end(body);
    });
  const start = performance.now();
  let counted = 0;
  let measuring = false;
  const worker = async () => {
    while (performance.now() - start < WARM_MS + MEASURE_MS) {
      await call();
      if (measuring) counted++;
    }
  };
  setTimeout(() => (measuring = true), WARM_MS);
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return counted / (MEASURE_MS / 1000);
}

async function cluster(nginx: string, size: number): Promise<number> {
  const routes = ['a', 'b', 'c', 'd'].slice(0, size);
  const instances = await Promise.all(routes.map(startInstance));
  const balancer = await startNginx(
    nginx,
    instances.map((i, n) => ({ route: routes[n], port: i.port })),
  );
  try {
    return await throughput(balancer.port);
  } finally {
    balancer.stop();
    for (const { child } of instances) child.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const nginx = executable('nginx');
  if (!nginx) {
    console.log('nginx is not installed: skipped (apt-get install nginx)');
    return;
  }
  const direct = await startInstance('solo');
  const alone = await throughput(direct.port);
  direct.child.kill('SIGKILL');
  const one = await cluster(nginx, 1);
  const three = await cluster(nginx, 3);
  console.log(`\n2026-07-28 tools/call (order tool), ${CONCURRENCY} in flight, ${MEASURE_MS / 1000} s each, ${availableParallelism()} cores shared by everything`);
  console.log(`  one instance, no balancer            ${alone.toFixed(0).padStart(8)} calls/s`);
  console.log(`  one instance behind nginx            ${one.toFixed(0).padStart(8)} calls/s`);
  console.log(`  three instances behind nginx         ${three.toFixed(0).padStart(8)} calls/s`);
  console.log(`  ratio (three / one, behind nginx)    ${(three / one).toFixed(2).padStart(8)}x`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
