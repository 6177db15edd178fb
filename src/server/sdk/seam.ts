import { Server } from '@modelcontextprotocol/server';
import type { Log } from '../../log';
import { missingMembers } from './members';

/**
 * Whether this server may use the SDK's private members (members.ts), decided once when it starts serving. With
 * every member present, the fast paths run: the hot path below the SDK's dispatch, the pooled 2026-07-28 servers
 * and the 2025-era session posts answered on Node's response. With one missing (an SDK release moved it), the
 * server logs one warning naming what is missing and every fast path stays off: the SDK's `Server` and transports
 * answer everything, slower but with the same answers.
 */

/** Names a test declares missing, to prove the fallback on the installed SDK (test/server/sdk/sdk-seam.test.ts). */
let simulated: readonly string[] = [];

/** Internal, for tests: the members every later check reports missing (none by default). */
export function simulateMissingSdkMembers(names: readonly string[]): void {
  simulated = [...names];
}

const seams = new WeakMap<Log, SdkSeam>();

/** One server's seam (one per `Log`, which each `McpServer` has its own of): its checks and its one warning. */
export class SdkSeam {
  private serverChecked = false;
  private httpChecked = false;
  private readonly missing = new Set<string>();

  private constructor(private readonly log: Log) {}

  /** The seam of the server that logs through `log`. */
  static of(log: Log): SdkSeam {
    let seam = seams.get(log);
    if (!seam) seams.set(log, (seam = new SdkSeam(log)));
    return seam;
  }

  /** Whether the fast paths of a connection (stdio, in-memory) may run: checks the `Server` members once. */
  serverPaths(): boolean {
    if (!this.serverChecked) {
      this.serverChecked = true;
      this.record(missingMembers({ server: probeServer() }));
    }
    return this.missing.size === 0;
  }

  /**
   * Whether the HTTP fast paths may run: checks the `Server` members and, on `transport` (a fresh, unconnected SDK
   * session transport the HTTP room makes), the transport's, once.
   */
  httpPaths(transport: () => object): boolean {
    if (!this.httpChecked) {
      this.httpChecked = this.serverChecked = true;
      this.record(missingMembers({ server: probeServer(), transport: transport() }));
    }
    return this.missing.size === 0;
  }

  /** Names what is missing, once: members an earlier check already named are not named again. */
  private record(found: readonly string[]): void {
    const fresh = [...found, ...simulated].filter((name) => !this.missing.has(name));
    if (fresh.length === 0) return;
    for (const name of fresh) this.missing.add(name);
    this.log.warn(
      `The installed MCP SDK lacks ${fresh.join(', ')}, which this version of onemodelcontext was built against; ` +
        "serving through the SDK's public path instead (correct, but slower). Install the SDK version package.json names.",
      { event: 'sdk.fallback' },
    );
  }
}

function probeServer(): Server {
  return new Server({ name: 'onemodelcontext-sdk-probe', version: '0' });
}
