import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { nginxConfig, type Upstream } from '../../../samples/cluster/src/nginx';
import { ROOT } from './build';

/**
 * The real engines of the multi-instance tests, all on 127.0.0.1 with ephemeral ports and temporary files:
 * Redis, nginx with the configuration of samples/cluster (one worker, so round robin is exact; sticky 2025
 * sessions by their id's prefix), and instances of the cluster fixture as child
 * processes. Everything a start created is stopped by `stop()`, also when the start itself failed half way,
 * and killed outright if the test process exits first.
 */

export const CLUSTER_MAIN = join(ROOT, 'test/e2e/fixture/dist/cluster.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** A port nobody listens on right now (the OS picks it; closed again before it is handed out). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port. */
async function listening(port: number, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** An executable by name on PATH, or in the sbin folders Debian installs daemons to. */
export function executable(name: string): string {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  const found = folders.map((folder) => join(folder, name)).find((path) => path && existsSync(path));
  if (!found) throw new Error(`${name} is not installed; .ci/run installs it with apt-get (apt-get install -y redis-server nginx).`);
  return found;
}

/** A child process that is killed by `stop()` and by the test process's exit. */
function launch(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  return { child, output: () => output };
}

/** Sends the signal and waits for the exit; SIGKILL after `graceMs`. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface Redis {
  readonly port: number;
  readonly url: string;
  /** The redis-server process (to pause it with SIGSTOP). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** redis-server without persistence, in the foreground. */
export async function startRedis(onPort?: number): Promise<Redis> {
  const port = onPort ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'omc-redis-'));
  const { child, output } = launch(executable('redis-server'), [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
  ]);
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(port, `redis-server (${output()})`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, url: `redis://127.0.0.1:${port}`, pid: child.pid!, stop };
}

export interface Balancer {
  readonly port: number;
  /** The MCP endpoint through the balancer. */
  readonly url: string;
  /** What nginx wrote to its error log. */
  errors(): string;
  stop(): Promise<void>;
}

/** nginx in the foreground with a temporary prefix, configuration and logs. */
export async function startBalancer(upstreams: readonly Upstream[]): Promise<Balancer> {
  const port = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'omc-nginx-'));
  const conf = join(prefix, 'nginx.conf');
  // A master started as root hands its workers to `nobody` unless told otherwise; they write under the prefix.
  const user = process.getuid?.() === 0 ? userInfo().username : undefined;
  writeFileSync(conf, nginxConfig({ prefix, port, upstreams, user }));
  const { child, output } = launch(executable('nginx'), ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')]);
  const errors = () => (existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : '') + output();
  const stop = async () => {
    await stopChild(child, 'SIGQUIT');
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    await listening(port, 'nginx');
  } catch (error) {
    const seen = errors();
    await stop();
    throw new Error(`${(error as Error).message}\n${seen}`, { cause: error });
  }
  return { port, url: `http://127.0.0.1:${port}/mcp`, errors, stop };
}

export interface Instance {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
  output(): string;
  /** Sends the signal and resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** One cluster fixture process; resolves once it prints the port it listens on. */
export async function startInstance(name: string, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const { child, output } = launch(process.execPath, [CLUSTER_MAIN], { INSTANCE: name, ROUTE: name, ...env });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start within 60 s:\n${output()}`)), 60_000);
    const seen = () => {
      const match = /listening (\d+)/.exec(output());
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', seen);
      resolve(Number(match[1]));
    };
    child.stdout!.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} exited with ${code}:\n${output()}`));
    });
  }).catch(async (error: Error) => {
    await stopChild(child, 'SIGKILL');
    throw error;
  });
  return { name, port, child, output, stop: (signal = 'SIGTERM') => stopChild(child, signal) };
}

export interface Cluster {
  readonly instances: readonly Instance[];
  readonly balancer: Balancer;
  readonly redis?: Redis;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly size: number;
  /** Environment of every instance (SECRET, LEGACY ...); `REDIS_URL` is added when `redis` is set. */
  readonly env?: NodeJS.ProcessEnv;
  readonly redis?: boolean;
}

/** Redis (when asked), `size` instances named a, b, c ..., and nginx in front of them. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    await Promise.all(
      stoppers
        .splice(0)
        .reverse()
        .map((s) => s()),
    );
  };
  try {
    const redis = options.redis ? await startRedis() : undefined;
    if (redis) stoppers.push(() => redis.stop());
    const env = { ...options.env, ...(redis ? { REDIS_URL: redis.url } : {}) };
    const names = Array.from({ length: options.size }, (_, i) => String.fromCharCode(97 + i));
    const instances = await Promise.all(
      names.map(async (name) => {
        const instance = await startInstance(name, env);
        stoppers.push(() => instance.stop('SIGKILL'));
        return instance;
      }),
    );
    const balancer = await startBalancer(instances.map((i) => ({ route: i.name, port: i.port })));
    stoppers.push(() => balancer.stop());
    return { instances, balancer, redis, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
