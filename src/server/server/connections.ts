import type { ServerEventBus, Transport } from '@modelcontextprotocol/server';
import type { ProfilePicker } from '../../schema/profiles';
import { ListenPolicy } from '../auth/listen-policy';
import { Visibility } from '../auth/visibility';
import type { Catalog } from '../catalog/catalog';
import { followBus } from '../catalog/live';
import type { HttpServing } from '../http/entry/endpoint';
import { routeByOpening } from '../protocol/opening';
import type { CatalogServer, ProtocolSettings } from '../protocol/server';
import type { LoopSettings } from '../stdio/loop';
import { sdkStdio } from '../stdio/serve';
import type { Network, Telemetry } from '../telemetry/telemetry';

/** Something the server serves and stops: a transport, an HTTP endpoint or handler. */
export interface Served {
  close(): Promise<void>;
  /** Graceful stop: refuse new work, finish calls in progress up to the deadline, then close. */
  shutdown?(deadlineMs: number): Promise<void>;
}

const HTTP: Network = { transport: 'tcp', protocol: 'http' };

/**
 * The SDK `Server` as this library extends it (protocol/server.ts), loaded when a connection first needs it: a
 * stdio server answers its opening and its lists before that (stdio/loop.ts).
 */
function protocol(): typeof import('../protocol/server') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../protocol/server') as typeof import('../protocol/server');
}

/**
 * The SDK `Server`s one `McpServer` serves with, made alike for every transport: one per connection or request
 * over the catalog, instrumented by telemetry, following the event bus while a connection lasts.
 */
export class Connections {
  /** The stdio loop's result checks, one per revision (see `resultCheck`). */
  private readonly checkers = new Map<string, CatalogServer>();

  /** `settings.profile` is the server's picker, the default of every `Server` made without one of its own. */
  constructor(
    private readonly catalog: Catalog,
    private readonly settings: ProtocolSettings,
    private readonly bus: ServerEventBus,
    private readonly telemetry: Telemetry | undefined,
  ) {}

  protocolServer(network: Network, picker: ProfilePicker | undefined = this.settings.profile): CatalogServer {
    const server = protocol().createProtocolServer(this.catalog, { ...this.settings, profile: picker });
    this.telemetry?.instrument(server, network);
    return server;
  }

  /** A `Server` for a connection that outlives its requests: it follows the event bus until it closes. */
  connectionServer(era: 'legacy' | 'modern', network: Network, picker: ProfilePicker | undefined = this.settings.profile): CatalogServer {
    const server = this.protocolServer(network, picker);
    server.onClosed(followBus(server, this.bus, era, server.subscriptions));
    return server;
  }

  /**
   * Serves one connection over `transport`, in whichever era its client opens; what it serves is tracked in
   * `open` (a 2025-era connection's `Server` leaves it when it closes).
   */
  async connect(transport: Transport, open: Set<Served>): Promise<void> {
    let legacy = false;
    const { serveStdio, StdioServerTransport } = sdkStdio();
    const network: Network = transport instanceof StdioServerTransport ? { transport: 'pipe' } : {};
    // Failures before a protocol server takes the connection over (the SDK chains this handler after).
    const reportError = this.settings.log.transportFailure;
    transport.onerror ??= reportError;
    await routeByOpening(
      protocol().withLegacyNotFoundCode(transport, () => legacy),
      {
        legacy: async (view) => {
          legacy = true;
          const server = this.connectionServer('legacy', network);
          server.answerHotRequests();
          open.add(server);
          server.onClosed(() => open.delete(server));
          await server.connect(view);
        },
        other: (view) => {
          const factory = ({ era }: { era: 'legacy' | 'modern' }) => {
            legacy = era === 'legacy';
            return this.connectionServer(era, network);
          };
          open.add(serveStdio(factory, { transport: view, onerror: reportError }));
        },
      },
    );
  }

  /**
   * What the stdio loop is set with but its hand-over to the SDK (stdio/serve.ts adds that): the catalog, the
   * opening's answers, and the SDK's result check and error mapping for the calls it answers.
   */
  loopSettings(): Omit<LoopSettings, 'handOff'> {
    const { info, instructions, pager, log, maxResultBytes, profile, searchFirst } = this.settings;
    return {
      catalog: this.catalog,
      info,
      instructions,
      pager,
      bus: this.bus,
      needsSdk: () => this.needsSdk(),
      onerror: log.transportFailure,
      log,
      maxResultBytes,
      profile,
      searchFirst,
      checkToolResult: (version, result) => this.resultCheck(version).checkToolResult(result),
      protocolError: (error, id) => protocol().protocolErrorOf(error, log, { mcpReq: { id }, sessionId: undefined } as never),
    };
  }

  /**
   * Whether a stdio connection needs the SDK from its first message: tasks (their capability and status
   * notifications) and telemetry while a provider records (every request's span) are served there only.
   */
  needsSdk(): boolean {
    // Skills are served by the SDK's extension, so a stdio server with skills answers through the SDK.
    return this.catalog.usesTasks || this.catalog.skills !== undefined || (this.telemetry?.recording() ?? false);
  }

  /**
   * The SDK's `tools/call` result check of a 2025-era revision, for the stdio loop's calls whose result is not
   * plainly valid: a `CatalogServer` never connected, fixed at the revision (loads the SDK on first use).
   */
  private resultCheck(version: string): CatalogServer {
    let server = this.checkers.get(version);
    if (server === undefined) {
      server = this.protocolServer({ transport: 'pipe' });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../sdk/server') as typeof import('../sdk/server')).servesRevision(server, version);
      this.checkers.set(version, server);
    }
    return server;
  }

  /** The `Server`s of an HTTP endpoint listing under `picker`: a 2025-era session's, a request's, the hot pool's. */
  httpServing(picker: ProfilePicker | undefined): HttpServing {
    const session = () => {
      const server = this.connectionServer('legacy', HTTP, picker);
      server.answerHotRequests();
      return server;
    };
    const exchange = () => {
      const server = this.protocolServer(HTTP, picker);
      server.answerHotRequests();
      return server;
    };
    // The SDK's stateless 2025 serving asks for a `legacy` server per request, on a transport of its own.
    const request = (era?: 'legacy' | 'modern') => {
      const server = this.protocolServer(HTTP, picker);
      if (era === 'legacy') server.writesLegacyNotFound();
      return server;
    };
    const listens = new ListenPolicy(new Visibility(this.catalog, this.settings.log));
    return { session, request, exchange, bus: listens.bus(this.bus), perRequest: (handler) => listens.handler(handler) };
  }
}
