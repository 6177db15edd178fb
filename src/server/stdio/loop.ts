import { PassThrough, type Readable, type Writable } from 'node:stream';
import { asError } from '../../errors';
import type { ServerCapabilities, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { Catalog, Listings } from '../catalog/catalog';
import type { Pager } from '../catalog/pages';
import { negotiatesApps } from '../catalog/ui-resource';
import { APPS_EXTENSION } from '../catalog/catalog';
import { advertisedIn, capabilitiesOf } from '../protocol/capabilities';
import { isPlainInitialized, readInitialize, type InitializeRequest } from '../protocol/initialize';
import { forRevision, serverInfoFor } from '../revisions';
import { methodsWhere } from '../methods';
import { LIST_SHAPES, hotRequest, pageOf, plainCancelled, type ListShape } from '../protocol/rules';
import { isPlainObject } from '../../objects';
import { LoopCalls, type CallSettings } from './calls';
import type { ToolListing } from '../catalog/listing';
import { SEARCH_FIRST_NAMES } from '../catalog/search';
import { EXACT, type Profile, type ProfilePicker } from '../../schema/profiles';

/**
 * The stdio loop: a stdio connection's first messages answered without the MCP SDK, which costs more than half of
 * a cold start to load (sdk/lazy.ts). It answers, exactly as the SDK path answers them (the hot path's bytes:
 * protocol/hot-path.ts), a 2025-era connection's `initialize`, `notifications/initialized`, `ping`, the four
 * lists and `tools/call` (calls.ts; the rows of server/methods.ts that say `stdio`), under the hot path's rule made
 * stricter: a message is taken only when it is certainly one of these, plain. The rules are the hot path's own
 * (protocol/rules.ts: admission, cancellation, the page of a list; initialize.ts: the opening's reading); the
 * loop is only their other wire.
 *
 * Anything else (`logging/setLevel`, a read, a completion, a subscription, a 2026-07-28 opening, a
 * list whose answer the SDK's codec would rewrite, a message that is not JSON-RPC ...) hands the connection over:
 * the SDK is loaded, the server's usual SDK `Server` is connected to an SDK `StdioServerTransport` reading the
 * loop's lines, the opening (`initialize` and the `notifications/initialized` seen) is replayed to it with its
 * answer suppressed, so it holds the state it would hold had it served from the start, and from the message that
 * handed over on, every line goes to it. What the loop answered it answered as the SDK would have.
 */

/** The revisions `initialize` negotiates, newest first: the SDK's legacy (2025-era) supported versions. */
export const LEGACY_REVISIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** What the loop serves from, and how it hands the connection to the SDK. */
export interface LoopSettings extends CallSettings {
  readonly catalog: Catalog;
  readonly info: { readonly icons?: unknown };
  readonly instructions?: string;
  readonly pager: Pager;
  readonly bus: ServerEventBus;
  /** Whether the connection must go to the SDK before this message (a feature the loop does not serve is on). */
  readonly needsSdk: () => boolean;
  /** `catalog: 'search'`: tools/list and the three tools of protocol/search-first.ts go to the SDK's handlers. */
  readonly searchFirst?: boolean;
  /**
   * Connects the server's SDK `Server` to an SDK stdio transport reading `input`; `suppress` is asked about every
   * message before it is written, and a `true` keeps it off the wire. Resolves once connected.
   */
  readonly handOff: (input: Readable, suppress: (message: object) => boolean) => Promise<void>;
  /** A failure of the hand-over (reported; the connection stops). */
  readonly onerror: (error: Error) => void;
  /** The listing profile of a client (schema/profiles), picked at `initialize`; none: the exact listing. */
  readonly profile?: ProfilePicker;
}

type Json = Readonly<Record<string, unknown>>;

/** A list method the loop answers: its shape (protocol/rules.ts, the handlers' own) and what it lists. */
interface ListMethod {
  readonly shape: ListShape<{ readonly name?: string; readonly uri?: string; readonly uriTemplate?: string }>;
  readonly listing: (catalog: Catalog, apps: boolean) => readonly object[];
  /**
   * Whether the connection's SDK `Server` has a handler for it: protocol/server.ts registers the resource and prompt
   * handlers with the capabilities, both fixed when the connection opens.
   */
  readonly served: (capabilities: ServerCapabilities) => boolean;
}

const listingOf = (field: keyof Listings) => (catalog: Catalog) => catalog.listings[field];

const LISTS: Readonly<Record<string, ListMethod>> = {
  'tools/list': {
    shape: LIST_SHAPES['tools/list'],
    listing: (catalog, apps) => catalog.listings[apps ? 'tools' : 'plainTools'],
    served: () => true,
  },
  'resources/list': { shape: LIST_SHAPES['resources/list'], listing: listingOf('resources'), served: (c) => c.resources !== undefined },
  'resources/templates/list': {
    shape: LIST_SHAPES['resources/templates/list'],
    listing: listingOf('templates'),
    served: (c) => c.resources !== undefined,
  },
  'prompts/list': { shape: LIST_SHAPES['prompts/list'], listing: listingOf('prompts'), served: (c) => c.prompts !== undefined },
};

/** The requests the loop answers itself (their rows say `stdio`); any other hands the connection over. */
const LOOP_METHODS: ReadonlySet<unknown> = methodsWhere((row) => row.stdio === true);
/** The `outputSchema` the SDK's 2025 codec rewrites in `tools/list` (a root that is not an object: it wraps it). */
function rewrittenByCodec(tools: readonly object[]): boolean {
  return tools.some((tool) => {
    const schema = (tool as { outputSchema?: unknown }).outputSchema;
    return isPlainObject(schema) && schema.type !== 'object';
  });
}

/** A list change event's notification, sent when the opening advertised `listChanged` for its capability. */
const LIST_CHANGES: Readonly<
  Record<
    Exclude<ServerEvent['kind'], 'resource_updated'>,
    { readonly capability: 'tools' | 'prompts' | 'resources'; readonly method: string }
  >
> = {
  tools_list_changed: { capability: 'tools', method: 'notifications/tools/list_changed' },
  prompts_list_changed: { capability: 'prompts', method: 'notifications/prompts/list_changed' },
  resources_list_changed: { capability: 'resources', method: 'notifications/resources/list_changed' },
};

/** The connection's opening as the loop answered it: replayed to the SDK when the connection is handed over. */
interface Opening {
  readonly line: Buffer;
  readonly request: InitializeRequest;
  readonly version: string;
  readonly capabilities: ServerCapabilities;
  /** The `notifications/initialized` lines seen since (replayed in order). */
  readonly initialized: Buffer[];
  /** The client's listing profile, picked once. */
  readonly profile: Profile;
}

const NEWLINE = 0x0a;

export class StdioLoop {
  private opening: Opening | undefined;
  /** Lines that arrived while the SDK connected, delivered once the replay is answered. */
  private pending: Buffer[] | undefined;
  /** The SDK transport's input once the connection is handed over. */
  private sdkInput: PassThrough | undefined;
  private partial: Buffer[] = [];
  private readonly unsubscribe: () => void;
  private readonly calls: LoopCalls;
  /** Set once stdin ended or the server closed: nothing more is written (the SDK's transport is closed then too). */
  private closed = false;
  /** A write to stdout failed before the SDK took over: reported, and the loop stops, as the SDK transport does. */
  private readonly outputFailed = (error: Error) => {
    this.settings.onerror(error);
    void this.close();
  };

  constructor(
    private readonly settings: LoopSettings,
    private readonly input: Readable,
    private readonly output: Writable,
  ) {
    this.unsubscribe = settings.bus.subscribe((event) => this.changed(event));
    this.calls = new LoopCalls(settings, { write: (message) => this.write(message), handOver: (line) => this.toSdk(line) });
    output.on('error', this.outputFailed);
    input.on('data', (chunk: Buffer) => this.read(chunk));
    input.on('end', () => {
      this.stop();
      this.sdkInput?.end();
    });
  }

  /** Stops reading; a connection handed over is closed by its SDK transport (the server tracks it). */
  async close(): Promise<void> {
    this.stop();
    this.input.removeAllListeners('data');
    this.input.pause();
  }

  private stop(): void {
    this.closed = true;
    this.unsubscribe();
    this.calls.abortAll();
  }

  /** Splits the guarded input (whole lines that parse as JSON, stdio/stdio.ts) into lines. */
  private read(chunk: Buffer): void {
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, at + 1);
      const line = this.partial.length === 0 ? piece : Buffer.concat([...this.partial.splice(0), piece]);
      this.line(line);
      start = at + 1;
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }

  private line(line: Buffer): void {
    if (this.closed) return;
    if (this.pending || this.sdkInput) {
      // The SDK serves the connection now; the loop's own calls in progress still hear their cancellation.
      if (this.calls.running) this.cancelledAfterHandOver(line);
      return this.toSdk(line);
    }
    const message = parsed(line);
    if (!isPlainObject(message) || this.settings.needsSdk() || !this.answer(message, line)) this.toSdk(line);
  }

  private cancelledAfterHandOver(line: Buffer): void {
    const message = parsed(line);
    if (isPlainObject(message) && message.method === 'notifications/cancelled' && plainCancelled(message))
      this.calls.cancelled(message.params);
  }

  /** Gives a line to the SDK: the connection is handed over first, if it is not yet. */
  private toSdk(line: Buffer): void {
    if (this.pending) this.pending.push(line);
    else if (this.sdkInput) this.sdkInput.write(line);
    else this.handOff(line);
  }

  /** Answers `message` when the loop owns it (`true`); `false` hands the connection over. */
  private answer(message: Json, line: Buffer): boolean {
    const { opening } = this;
    const method = message.method;
    if (opening === undefined) return method === 'initialize' && this.initialize(message, line);
    if (method === 'notifications/initialized') {
      if (!isPlainInitialized(message)) return false;
      opening.initialized.push(line);
      return true;
    }
    // The SDK ignores a cancellation of a request it does not serve; the loop's own calls are aborted.
    if (method === 'notifications/cancelled') return plainCancelled(message) && this.calls.cancelled(message.params);
    if (!LOOP_METHODS.has(method)) return false;
    if (method === 'tools/call') {
      const { version, request } = opening;
      return (
        hotRequest(message) !== undefined &&
        !this.searchTool(message) &&
        this.calls.take(message, line, {
          version,
          clientInfo: request.params.clientInfo,
          capabilities: request.params.capabilities,
          nullsAbsent: opening.profile.name === 'openai-strict',
        })
      );
    }
    if (method === 'ping') {
      if (hotRequest(message) === undefined) return false;
      this.write({ result: {}, jsonrpc: '2.0', id: message.id });
      return true;
    }
    const list = typeof method === 'string' ? LISTS[method] : undefined;
    // Under `catalog: 'search'` the SDK's handler answers tools/list and the three tools (protocol/search-first.ts).
    if (
      list === undefined ||
      (this.settings.searchFirst === true && method === 'tools/list') ||
      !list.served(opening.capabilities) ||
      hotRequest(message) === undefined
    )
      return false;
    return this.list(list, message, opening);
  }

  /** Whether this is a call of one of the search-first catalog's three tools (answered by the SDK's handler). */
  private searchTool(message: Json): boolean {
    return this.settings.searchFirst === true && SEARCH_FIRST_NAMES.has((message.params as Json).name as string);
  }

  /** `initialize`, as the SDK `Server` answers it through CatalogServer (its revision's server info). */
  private initialize(message: Json, line: Buffer): boolean {
    const request = readInitialize(message);
    if (request === undefined) return false;
    const { catalog, info, instructions } = this.settings;
    const requested = request.params.protocolVersion;
    const version = LEGACY_REVISIONS.includes(requested) ? requested : LEGACY_REVISIONS[0];
    const capabilities = advertisedIn(false, capabilitiesOf(catalog));
    const pick = this.settings.profile;
    const { clientInfo, capabilities: asked } = request.params;
    const profile = pick ? pick({ clientInfo: clientInfo as never, capabilities: asked, protocolVersion: version }) : EXACT;
    this.opening = { line, request, version, capabilities, initialized: [], profile };
    const result = {
      protocolVersion: version,
      capabilities,
      serverInfo: serverInfoFor(info, version),
      ...(instructions && { instructions }),
    };
    this.write({ result, jsonrpc: '2.0', id: request.id });
    return true;
  }

  /** One page of a list, as protocol/server.ts's `listed` gives it to a 2025-era caller. */
  private list(method: ListMethod, message: Json, opening: Opening): boolean {
    const apps = negotiatesApps((opening.request.params.capabilities.extensions as Json | undefined)?.[APPS_EXTENSION]);
    const { catalog } = this.settings;
    const listed = method.listing(catalog, apps);
    const { list, field, keyOf } = method.shape;
    const items = forRevision(list === 'tools' ? catalog.toolsUnder(listed as ToolListing[], opening.profile) : listed, opening.version);
    if (list === 'tools' && rewrittenByCodec(items)) return false;
    let result;
    try {
      result = pageOf(this.settings.pager, list, field, items, keyOf, (message.params as Json | undefined)?.cursor);
    } catch {
      // A cursor this server did not issue: the SDK answers it (the same -32602 it always did).
      return false;
    }
    this.write({ result, jsonrpc: '2.0', id: message.id });
    return true;
  }

  /**
   * A change published while the loop serves: the notification the connection's SDK `Server` would send
   * (catalog/live.ts), once `initialize` opened it. A `resources/updated` goes to subscribers only, and
   * subscribing hands the connection over, so the loop has none.
   */
  private changed(event: ServerEvent): void {
    const capabilities = this.opening?.capabilities;
    if (capabilities === undefined || this.pending || this.sdkInput) return;
    const notified = event.kind === 'resource_updated' ? undefined : LIST_CHANGES[event.kind];
    if (notified !== undefined && capabilities[notified.capability]?.listChanged === true)
      this.write({ jsonrpc: '2.0', method: notified.method });
  }

  /** Writes a message as the SDK's stdio transport serializes it. */
  private write(message: object): void {
    if (!this.closed) this.output.write(`${JSON.stringify(message)}\n`);
  }

  /**
   * Hands the connection to the SDK from `line` on: connects the SDK `Server`, replays the opening with its answer
   * kept off the wire, then delivers `line` and whatever arrived meanwhile.
   */
  private handOff(line: Buffer): void {
    this.pending = [line];
    this.unsubscribe();
    const input = new PassThrough();
    const opening = this.opening;
    let replayed: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (replayed = resolve));
    let suppressing = opening !== undefined;
    const suppress = (message: object): boolean => {
      if (!suppressing || !('id' in message) || (message as { id: unknown }).id !== opening!.request.id) return false;
      if (!('result' in message) && !('error' in message)) return false;
      suppressing = false;
      replayed();
      return true;
    };
    this.settings
      .handOff(input, suppress)
      .then(async () => {
        // The SDK's transport reports and handles stdout's failures from now on.
        this.output.off('error', this.outputFailed);
        if (opening) {
          input.write(opening.line);
          await answered;
          for (const initialized of opening.initialized) input.write(initialized);
        }
        const waiting = this.pending ?? [];
        this.pending = undefined;
        this.sdkInput = input;
        for (const next of waiting) input.write(next);
        if (this.input.readableEnded) input.end();
      })
      .catch((error: unknown) => this.settings.onerror(asError(error)));
  }
}

/**
 * A line the guard passed (stdio/stdio.ts checks it as this parse reads it), or `undefined` should one ever not
 * parse: the line then goes to the SDK, which drops it, instead of a throw ending the process from a stream handler.
 */
function parsed(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
