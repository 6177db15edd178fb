import type { StandardSchemaV1 } from '../decorators/standard-schema';
import type { Readable, Writable } from 'node:stream';
import type { ServerEventBus, Transport } from '@modelcontextprotocol/server';
import { InMemoryServerEventBus } from './stores/stores';
import { checkPublic, checkScopes } from '../decorators/member';
import type { CacheOptions, Icon } from '../decorators/listing-options';
import { Problems } from '../schema/diagnostics';
import { cacheOf, iconsOf } from '../schema/members/listing-metadata';
import type { CacheHint } from '../schema/model';
import type { QuickHandlerArgs } from '../decorators/hint-value';
import { toolFromConfig, type QuickParams, type QuickToolConfig } from '../schema/members/quick';
import { UnknownToolError } from '../invoke/calling/errors';
import type { AddOptions } from '../invoke/calling/invocation';
import type { Interceptor } from '../invoke/calling/interceptors';
import { Log, type McpLogger } from '../log';
import { UsageError, UsageTypeError } from '../errors';
import type { CallToolResult } from '../invoke/results/results';
import type { RequestContext, RequestContextInit } from '../invoke/request/request-context';
import { Catalog, type CatalogKind, type Member } from './catalog/catalog';
import type { AuthorizeItem } from './auth/caller';
import type { UiResourceOptions } from './catalog/ui-resource';
import type { SkillsOptions } from './catalog/skills';
import { SkillBuilds } from './catalog/skill-builds';
import { DefinitionWarnings } from './catalog/definition-warnings';
import { checkGuardStdout, checkMaxMessageBytes, guardProcessStdout, serveStreams } from './stdio/serve';
import type { HttpAddress, HttpHandler, HttpHandlerOptions, HttpServing, ListeningEndpoint, ServeHttpOptions } from './http/entry/endpoint';
import { cardText, http, waitingForSkills } from './http/entry/start';
import type { ToolListing } from './catalog/listing';
import type { PromptListing, ResourceListing } from './catalog/resource-listing';
import { serverCardOf, type ServerCardOptions } from './catalog/server-card';
import { capabilitiesOf } from './protocol/capabilities';
import { listChangedEvent } from './catalog/live';
import { SEARCH_FIRST_NAMES } from './catalog/search';
import { checkPageSizes, Pager, type PageSizes } from './catalog/pages';
import { InMemoryTaskStore, type TaskStore } from './tasks/store';
import { TaskRunner, type TaskOptions } from './tasks/tasks';
import { checkStoreTimeout } from './stores/degraded';
import { guardedTaskStore } from './tasks/guarded-store';
import { checkMaxResultBytes } from './protocol/result-size';
import { Telemetry } from './telemetry/telemetry';
import { RequestStates, signingKeys } from './protocol/signing';
import type { TelemetryOptions } from './telemetry/options';
import type { ValidationOptions } from '../schema/records/validation-options';
import {
  checkListing,
  isProfileName,
  mayList,
  pickerOf,
  profileOf,
  type ListingOption,
  type ProfileName,
  type ProfilePicker,
} from '../schema/profiles';
import { absentNulls } from '../invoke/reading/absent-nulls';
import { Connections, type Served } from './server/connections';
import { isObjectLike } from '../objects';

/**
 * The seam the Nest module gives the app's `ValidationPipe` options through, once the application is configured
 * and before its providers are added (a registry symbol: the module shares no internal import with the server).
 */
const SET_VALIDATION = Symbol.for('onemodelcontext.setValidation');

/** Server identity sent in `initialize` (and, on 2026-07-28, in every result's `_meta`). */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  /** Icons a client can show for the server (sent from protocol revision 2025-11-25). */
  readonly icons?: readonly Icon[];
}

/** Server options. */
export interface McpServerOptions {
  /** Aborts a tool's signal and answers an error result after this many milliseconds. */
  readonly requestTimeoutMs?: number;
  /**
   * Read an object or array argument that arrives as a JSON-encoded string (some models send
   * `"items": "[{\"sku\":\"A\"}]"`): where the schema expects an object or array and the string parses as
   * one, the parsed value is read. Default `false`: the listing is the contract.
   */
  readonly lenientJsonStrings?: boolean;
  /**
   * The validation options in force, as the app's `ValidationPipe` applies them: what a class-validator DTO
   * accepts (listing and reading agree with class-validator under them). Default
   * `{ whitelist: true, forbidNonWhitelisted: true }`: records are closed objects, unknown properties refused.
   * In Nest, without this option, the options of the app's global `ValidationPipe`.
   */
  readonly validation?: ValidationOptions;
  /** Instructions sent to the client at initialisation. */
  readonly instructions?: string;
  /**
   * Key (at least 32 bytes) that signs the `requestState` of multi-round trips (2026-07-28). Default: random
   * per process, which is enough when one process serves every round of a flow. Required when more than one
   * instance serves the same clients: every instance must hold the same secret, or a round that lands on
   * another instance than the one before is refused. The `requestState` key, the key binding a state to its
   * method, item and caller, and the page-cursor key are each derived from it (HKDF-SHA256).
   */
  readonly requestStateSecret?: string | Uint8Array;
  /**
   * How long a minted `requestState` verifies, in seconds. Within it, a state can be sent again (by the same
   * caller, for the same method and item) as often as wanted: a tool whose step must happen once keeps its own
   * record of it. Default 600.
   */
  readonly requestStateTtlSeconds?: number;
  /**
   * Most entries per page of `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list` and
   * `tasks/list`: one number for all, or per list. A list without a size is sent on one page.
   */
  readonly pageSize?: PageSizes;
  /**
   * Where catalog changes and resource updates are published, for every connection to hear: default an
   * in-process bus. Give a shared one (over your pub/sub) when several processes serve one catalog.
   */
  readonly eventBus?: ServerEventBus;
  /**
   * Where tasks (tools run with `@Tool({ task })`) are kept: default an {@link InMemoryTaskStore}. Give a shared
   * one when several processes serve one endpoint.
   */
  readonly taskStore?: TaskStore;
  /**
   * The bound of one operation of a given `taskStore` (Redis). Past it, or while the store is known to be down,
   * the request is answered with a "temporarily unable" error (-32000) at once. Default 1,000 ms.
   */
  readonly storeTimeoutMs?: number;
  /**
   * The largest tool result sent, in characters of its content's text and base64 data; a larger one is answered
   * with a JSON-RPC error naming the limit, and logged (`tool.failed`). Default 16 MiB.
   */
  readonly maxResultBytes?: number;
  /** How long tasks are kept and how often clients are asked to poll. */
  readonly tasks?: TaskOptions;
  /**
   * Where masked failures, output-schema mismatches, compile failures, timeouts and transport failures are
   * written: anything with `error`, `warn`, `info` and `debug` (console, pino, winston). Default: one line
   * per event on stderr. `false` logs nothing. Clients never see any of it.
   */
  readonly logger?: McpLogger | false;
  /**
   * The cache hint (protocol revision 2026-07-28) of every tool, resource and prompt that declares none, and of
   * `server/discover`. Default `{ ttlMs: 0, scope: 'private' }`: clients may not reuse results.
   */
  readonly cache?: CacheOptions;
  /**
   * OpenTelemetry spans and metrics per the semantic conventions for MCP, recorded when
   * `@opentelemetry/api` is installed and an SDK is registered. `false` switches them off.
   */
  readonly telemetry?: TelemetryOptions | false;
  /**
   * Which listing each client gets (docs/models-and-hosts.md): `'exact'` (the default) is the exact JSON Schema
   * 2020-12 listing; `'gemini'` fits Gemini's function declarations, `'openai-strict'` OpenAI's strict function
   * calling; a function picks one per client, from `{ clientInfo, capabilities, protocolVersion }` (at
   * `initialize` in the 2025 era, per request on 2026-07-28). Reading follows the profile: under
   * `'openai-strict'` a `null` for an optional parameter or property means absent.
   */
  readonly listing?: ListingOption;
  /**
   * Append what each fragment's keywords say, in words, to its description ("From 1 to 1000.", "One of: a, b.").
   * Default: on for `'gemini'` and `'openai-strict'`, off for `'exact'`.
   */
  readonly describeConstraints?: boolean;
  /**
   * What `tools/list` lists (docs/serving.md, "Search-first catalog"): `'all'` (the default), every tool the caller
   * may see; `'search'`, three tools that find, describe and call the others (`search_tools`, `describe_tool`,
   * `call_tool`), for a server with more tools than a model's context should hold. Every tool stays callable by
   * `tools/call` under its own name.
   */
  readonly catalog?: 'all' | 'search';
}

/**
 * Options of {@link McpServer.shutdown}.
 * @example process.once('SIGTERM', () => void server.shutdown({ deadlineMs: 10_000 }));
 */
export interface ShutdownOptions {
  /** How long calls in progress may run on before their sessions are closed anyway. Default 10 seconds. */
  readonly deadlineMs?: number;
}

/**
 * Options of {@link McpServer.serveStdio}.
 * @example await server.serveStdio({ maxMessageBytes: 32 * 1024 * 1024 });
 */
export interface ServeStdioOptions {
  /** The largest message (one line on stdin) in bytes; a larger one stops the server. Default 10 MiB. */
  readonly maxMessageBytes?: number;
  /**
   * Keep stdout for the protocol: while serving, a write to `process.stdout` that is not the server's
   * (`console.log` in a tool, a module or a dependency) goes to stderr, and the first is logged once
   * (`stdout.redirected`), naming where it came from. Default `true`; `false` leaves `process.stdout` as it is.
   */
  readonly guardStdout?: boolean;
}

/** The protocol's conservative default: results may not be reused. */
const NO_CACHE: CacheHint = Object.freeze({ ttlMs: 0, scope: 'private' });

/** Options of an in-process {@link McpServer.callTool}. */
export interface CallToolOptions {
  /** Aborts the tool's `signal`. */
  readonly signal?: AbortSignal;
  /** Receives what the tool reports through `RequestContext.reportProgress`. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Anything else the tool's `RequestContext` should carry (client info, protocol version ...). */
  readonly context?: RequestContextInit;
  /** Read the arguments as a client of this listing profile sends them (`'openai-strict'`: `null` of an optional one is absent). */
  readonly listing?: ProfileName;
}

/** Options of {@link McpServer.listTools}. */
export interface ListToolsOptions {
  /** List what a caller holding these scopes may see. */
  readonly scopes?: readonly string[];
  /** The listing of this profile (default: the exact listing, or the server's `listing` when it names one). */
  readonly listing?: ProfileName;
  /** Constraints in words (default: the server's `describeConstraints`, else on for the provider profiles). */
  readonly describeConstraints?: boolean;
}

/**
 * An MCP server whose tools, resources and prompts come from decorated classes (or the quick path).
 * @example
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * server.add(new WeatherTools());
 * console.log(server.listTools());
 */
export class McpServer {
  readonly info: ServerInfo;
  readonly options: McpServerOptions;
  private readonly catalog: Catalog;
  private readonly log: Log;
  private readonly bus: ServerEventBus;
  private readonly tasks: TaskRunner;
  private readonly open = new Set<Served>();
  /** The listing profile of each client; none: the exact listing for everyone. */
  private readonly picker: ProfilePicker | undefined;
  /** The SDK `Server`s of every transport (server/connections.ts). */
  private readonly connections: Connections;
  /** The builds of the served skills (`addSkills`, `@Skill` methods): serving waits for the last. */
  private readonly skills: SkillBuilds;
  /** What is said of the tools as they are added, each once (catalog/definition-warnings.ts). */
  private readonly warnings: DefinitionWarnings;

  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    if (typeof info?.name !== 'string' || typeof info?.version !== 'string') {
      throw new UsageTypeError(
        `new McpServer() needs { name, version }, for example new McpServer({ name: 'weather', version: '1.0.0' }).`,
      );
    }
    const problems = new Problems();
    const icons = iconsOf(info.icons, 'the server info', problems);
    const cache = cacheOf(options.cache, 'McpServerOptions', problems) ?? NO_CACHE;
    problems.throwIfAny('new McpServer()');
    this.info = Object.freeze(icons === undefined ? { ...info } : { ...info, icons });
    this.options = Object.freeze({ ...options });
    this.log = Log.of(options.logger);
    const telemetry = Telemetry.of(options.telemetry, this.log);
    checkPageSizes(options.pageSize);
    if (options.catalog !== undefined && options.catalog !== 'all' && options.catalog !== 'search')
      throw new UsageTypeError(`new McpServer(info, { catalog }) takes 'all' or 'search'; got ${JSON.stringify(options.catalog)}.`);
    this.catalog = new Catalog({
      requestTimeoutMs: options.requestTimeoutMs,
      lenientJsonStrings: options.lenientJsonStrings,
      validation: options.validation,
      log: this.log,
    });
    this.skills = new SkillBuilds(this.catalog, this.log);
    this.warnings = new DefinitionWarnings(this.catalog, this.log, options.listing);
    const keys = signingKeys(options.requestStateSecret);
    const states = new RequestStates(keys, options.requestStateTtlSeconds);
    const pager = new Pager(keys.cursor, options.pageSize);
    this.bus = options.eventBus ?? new InMemoryServerEventBus();
    // A given store is shared (Redis): bounded, so an outage is answered at once as "temporarily unable".
    const taskStore = options.taskStore
      ? guardedTaskStore(options.taskStore, checkStoreTimeout(options.storeTimeoutMs), this.log)
      : new InMemoryTaskStore();
    this.tasks = new TaskRunner(taskStore, options.tasks, this.log);
    const maxResultBytes = checkMaxResultBytes(options.maxResultBytes);
    this.picker = this.pickerFor(options);
    const searchFirst = options.catalog === 'search';
    const settings = { info: this.info, instructions: options.instructions, states, pager, log: this.log, tasks: this.tasks };
    const protocol = { ...settings, cache, maxResultBytes, profile: this.picker, searchFirst };
    this.connections = new Connections(this.catalog, protocol, this.bus, telemetry);
    for (const profile of ['openai-strict', 'gemini'] as const)
      if (mayList(options.listing, profile)) this.catalog.listUnder(profile, 'McpServer');
    if (searchFirst) this.catalog.reserveToolNames(SEARCH_FIRST_NAMES);
    // Under the search-first catalog the listed tools are always the same three: a tool change changes no listing.
    this.catalog.onChange((kind) => {
      if (!(searchFirst && kind === 'tool')) this.bus.publish(listChangedEvent(kind));
    });
  }

  /** The validation options in force from now on; only before the first tool is added (see `SET_VALIDATION`). */
  [SET_VALIDATION](validation: ValidationOptions): void {
    this.catalog.setValidation(validation);
  }

  /**
   * Adds every `@Tool`, `@Resource` and `@Prompt` of an instance. Throws one `DefinitionError` listing
   * every problem of its class; nothing of a refused class is added. `options.invoke` runs each call of
   * its methods (the NestJS module runs them through Nest's enhancers).
   */
  add(instance: object, options: AddOptions = {}): this {
    if (!isObjectLike(instance)) {
      throw new UsageTypeError('server.add() takes an instance of a decorated class, for example server.add(new WeatherTools()).');
    }
    if (options?.invoke !== undefined && typeof options.invoke !== 'function') {
      throw new UsageTypeError(
        'server.add(instance, { invoke }) needs invoke to be a function of the call, for example (call) => call.instance[call.method](...call.args).',
      );
    }
    const before = new Set(this.catalog.tools.keys());
    if (this.catalog.addInstance(instance, options ?? {}) > 0) this.skills.buildAfterAdd(`server.add(${instance.constructor.name})`);
    this.warnings.added(instance, before);
    return this;
  }

  /**
   * Runs `interceptor` around every tool call, resource read and prompt of this server, from the next call on,
   * whenever its items were added; the first registered is the outermost. Inside it, the `invoke` hook of
   * `server.add` (the Nest module's enhancers) and the method run.
   * @example
   * server.use(async ({ kind, name }, next) => {
   *   const started = performance.now();
   *   try { return await next(); }
   *   finally { console.error(`${kind} ${name}: ${(performance.now() - started).toFixed(1)} ms`); }
   * });
   */
  use(interceptor: Interceptor): this {
    if (typeof interceptor !== 'function') {
      throw new UsageTypeError('server.use() takes an interceptor function, for example server.use((call, next) => next()).');
    }
    this.catalog.interceptors.add(interceptor);
    return this;
  }

  /** The picker of a `listing` option and `describeConstraints` (an endpoint's, else the server's). */
  private pickerFor(options: { readonly listing?: unknown; readonly describeConstraints?: unknown }): ProfilePicker | undefined {
    const listing = checkListing(options.listing ?? this.options?.listing, 'listing');
    const describe = options.describeConstraints ?? this.options?.describeConstraints;
    if (describe !== undefined && typeof describe !== 'boolean')
      throw new UsageTypeError(`describeConstraints takes true or false; got ${JSON.stringify(describe)}.`);
    return pickerOf(listing, describe, (message, error) => this.log.error(message, { event: 'definition.warning', error }));
  }

  /**
   * The quick path: a tool from a handler and a map of parameter names to type hints. The handler's
   * argument is typed from the hints (`Int32` → `number`, `Nullable(Date)` → `Date | null`, a record
   * class → its instances ...), as the SDK's `registerTool` types it from a zod shape.
   * @example server.tool('add', { params: { a: Int32, b: Int32 } }, ({ a, b }) => a + b);
   */
  tool<const P extends QuickParams = Record<never, never>, S extends StandardSchemaV1 | undefined = undefined>(
    name: string,
    config: QuickToolConfig<P, S>,
    handler: (args: QuickHandlerArgs<P, S>, context: RequestContext) => unknown,
  ): this {
    if (typeof handler !== 'function') throw new UsageTypeError(`server.tool('${name}') needs a handler function.`);
    const call = handler as (args: Record<string, unknown>, context: RequestContext) => unknown;
    const where = `server.tool('${name}')`;
    const scopes = checkPublic(where, config?.public, checkScopes(where, config?.scopes)) ?? [];
    const model = toolFromConfig(name, config ?? {});
    this.catalog.addTool(model, { kind: 'handler', handler: call }, { scopes, public: config?.public === true });
    this.warnings.tool(model);
    return this;
  }

  /**
   * Serves every skill under `folder` (a folder of skill folders, each with a `SKILL.md` whose frontmatter names
   * and describes it) through the SDK's Skills extension (SEP-2640): `skills/list`, `skills/get`,
   * `resources/directory/read`, and each file with `resources/read` at `skill://<skill>/<path>`, in both eras.
   * `scopes`: what a caller's token must grant to list, get and read them; `public`: callers without a token too.
   * `auth.authorize` is asked about `{ kind: 'skill', name: 'skill://<skill>/SKILL.md' }`. Once per server, before
   * it serves; a folder the SDK refuses is a `DefinitionError` (OMCG0017).
   * @example await server.addSkills(join(__dirname, 'skills'), { scopes: ['skills:read'] });
   */
  async addSkills(folder: string, options: SkillsOptions = {}): Promise<this> {
    if (typeof folder !== 'string' || folder.length === 0)
      throw new UsageError('server.addSkills(folder) needs the path of a folder of skill folders.');
    const where = `server.addSkills('${folder}')`;
    const scopes = checkPublic(where, options?.public, checkScopes(where, options?.scopes));
    if (this.catalog.skillSources.folder)
      throw new UsageError('server.addSkills is called once per server: put every skill folder under one folder.');
    const access = { scopes: scopes ?? [], public: options?.public === true };
    this.catalog.skillSources.folder = { folder, subject: where, access, limits: options?.limits };
    try {
      await this.skills.build(where, true);
    } catch (error) {
      // A refused folder is not kept: the server serves the skills it served before, and may be given another.
      this.catalog.skillSources.folder = undefined;
      throw error;
    }
    return this;
  }

  /**
   * Registers an MCP Apps view, served as `text/html;profile=mcp-app` with the `_meta.ui` its options declare
   * (`csp`, `permissions`, `domain`, `prefersBorder`); its HTML comes from `html`, a `file` or a `read` function.
   * `scopes`: what a caller's token must grant to list and read it (default none).
   * Register a view before the class whose tools name it with `@Tool({ uiResource })` (else OMCG0015).
   * @example server.addUiResource('ui://weather/view', { file: join(__dirname, 'view.html'), title: 'Weather', prefersBorder: true });
   */
  addUiResource(uri: string, view: UiResourceOptions): this {
    this.catalog.addUiResource(uri, view);
    return this;
  }

  /**
   * Removes a tool or prompt (by name) or a resource (by its URI or URI template as registered) while serving;
   * every connected client is told its list changed. Throws when nothing of that name is registered.
   * @example server.remove('tool', 'forecast');
   */
  remove(kind: CatalogKind, key: string): this {
    this.catalog.remove(kind, key);
    return this;
  }

  /**
   * Hides a tool, resource or prompt from listings and calls without removing it (its name stays taken);
   * every connected client is told its list changed.
   * @example server.disable('tool', 'forecast');
   */
  disable(kind: CatalogKind, key: string): this {
    this.catalog.setEnabled(kind, key, false);
    return this;
  }

  /**
   * Shows again what {@link McpServer.disable} hid; every connected client is told its list changed.
   * @example server.enable('tool', 'forecast');
   */
  enable(kind: CatalogKind, key: string): this {
    this.catalog.setEnabled(kind, key, true);
    return this;
  }

  /**
   * Tells the clients subscribed to a resource URI that its content changed (`notifications/resources/updated`):
   * 2025-era sessions that called `resources/subscribe`, 2026-07-28 clients whose `subscriptions/listen`
   * filter names the URI. Nobody else hears it.
   * @example server.notifyResourceUpdated('weather://today');
   */
  notifyResourceUpdated(uri: string): void {
    if (typeof uri !== 'string' || uri.length === 0)
      throw new UsageTypeError(`server.notifyResourceUpdated() needs a URI, for example server.notifyResourceUpdated('weather://today').`);
    this.bus.publish({ kind: 'resource_updated', uri });
  }

  /**
   * @internal The decorated method behind a listed item, for the Nest module's guards deciding visibility.
   */
  memberOf(item: AuthorizeItem): Member | undefined {
    // A skill is a folder on disk, no decorated method.
    return item.kind === 'skill' ? undefined : this.catalog.memberOf(item.kind, item.name);
  }

  /**
   * The `tools/list` entries exactly as they are sent to a client that negotiated MCP Apps; with `scopes`, what
   * a caller whose token grants them is shown over HTTP with `auth`.
   * @example server.listTools({ scopes: ['orders:read'] }).map((t) => t.name);
   */
  listTools(options: ListToolsOptions = {}): readonly ToolListing[] {
    const tools = this.catalog.listingsFor(options.scopes).tools;
    if (options.listing === undefined && options.describeConstraints === undefined) return tools;
    const named = typeof this.options.listing === 'string' ? this.options.listing : 'exact';
    if (options.listing !== undefined && !isProfileName(options.listing))
      throw new UsageTypeError(
        `listTools({ listing }) takes 'exact', 'gemini' or 'openai-strict'; got ${JSON.stringify(options.listing)}.`,
      );
    return this.catalog.toolsUnder(
      tools,
      profileOf(options.listing ?? named, options.describeConstraints ?? this.options.describeConstraints),
    );
  }

  /**
   * @internal Every resource, resource template and prompt listing as it is sent (no scopes), for the command
   * line's `snapshot` and `manifest` (src/cli/), which reach a project's server through its public face only.
   */
  listings(): {
    readonly resources: readonly ResourceListing[];
    readonly templates: readonly ResourceListing[];
    readonly prompts: readonly PromptListing[];
  } {
    const { resources, templates, prompts } = this.catalog.listings;
    return { resources, templates, prompts };
  }

  /**
   * @internal The server card (catalog/server-card.ts): this server's info, capabilities and, unless
   * `primitives` is false, its exact listings. `serveHttp({ serverCard })` serves it; the command line writes it.
   */
  serverCard(options: ServerCardOptions = {}, primitives = true): Record<string, unknown> {
    const { tools, resources, prompts } = this.catalog.listings;
    const listings = primitives ? { tools, resources, prompts } : undefined;
    return serverCardOf({ info: this.info, capabilities: capabilitiesOf(this.catalog), listings }, options);
  }

  /**
   * Calls a tool in-process and returns the `CallToolResult` exactly as it would be sent. Argument errors
   * and tool failures are `isError` results; an unknown name rejects with `UnknownToolError`.
   * @example const result = await server.callTool('add', { a: 1, b: 2 });
   */
  async callTool(name: string, args?: unknown, options: CallToolOptions = {}): Promise<CallToolResult> {
    const tool = typeof name === 'string' ? this.catalog.tool(name) : undefined;
    if (!tool) throw new UnknownToolError(String(name));
    const onProgress = options.onProgress;
    return tool.call(options.listing === 'openai-strict' ? absentNulls(tool.model, args) : args, {
      ...options.context,
      signal: options.signal ?? options.context?.signal,
      reportProgress: onProgress ? (progress, total, message) => onProgress({ progress, total, message }) : options.context?.reportProgress,
    });
  }

  /**
   * Serves one connection over any MCP SDK transport, in whichever era its client opens: 2026-07-28
   * after `server/discover`, or a 2025 revision after `initialize`.
   * @example
   * const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
   * await server.connect(serverEnd);
   */
  async connect(transport: Transport): Promise<void> {
    await this.skills.last;
    await this.connections.connect(transport, this.open);
  }

  /**
   * Serves this process's stdin and stdout (both eras). Write logs to stderr: stdout carries the protocol, and
   * while serving, other writes to `process.stdout` go to stderr, the first with one warning naming its caller
   * (`guardStdout: false` turns that off). A line that is not JSON is answered with a parse error (-32700); a
   * message over `maxMessageBytes` stops the process with exit code 1 and one line on stderr saying so.
   * @example await server.serveStdio();
   */
  async serveStdio(options: ServeStdioOptions = {}): Promise<void> {
    checkMaxMessageBytes(options.maxMessageBytes);
    await this.skills.last;
    let stdout: Writable = process.stdout;
    if (checkGuardStdout(options.guardStdout)) {
      const guarded = guardProcessStdout(this.log);
      this.track({ close: async () => guarded.release() });
      stdout = guarded.protocol;
    }
    await this.serveStreams(process.stdin, stdout, options, process.env.ONEMODELCONTEXT_STDIO_LOOP !== 'off');
  }

  /** stdio over any pair of streams (stdio/serve.ts): through the stdio loop unless `loop` is off. */
  private async serveStreams(stdin: Readable, stdout: Writable, options: ServeStdioOptions, loop: boolean): Promise<void> {
    await serveStreams(stdin, stdout, checkMaxMessageBytes(options.maxMessageBytes), loop, {
      settings: () => this.connections.loopSettings(),
      connect: (transport) => this.connect(transport),
      close: () => this.close(),
      track: (served) => this.track(served),
    });
  }

  /**
   * Serves Streamable HTTP; resolves with the bound address once listening. 2025-era clients get
   * sessions, 2026-07-28 clients are served statelessly; on loopback, foreign Host and Origin headers
   * are refused with 403.
   * @example const { url } = await server.serveHttp({ port: 3000 }); // http://127.0.0.1:3000/mcp
   */
  async serveHttp(options: ServeHttpOptions = {}): Promise<HttpAddress> {
    await this.skills.last;
    const endpoint: ListeningEndpoint = await http().startHttp(this.httpServing(options), options, this.catalog, this.log);
    this.track(endpoint);
    if (options.shutdown) this.shutdownOn(options.shutdown.signals, { deadlineMs: options.shutdown.deadlineMs });
    return { host: endpoint.host, port: endpoint.port, url: endpoint.url };
  }

  /**
   * The MCP endpoint as a Node request handler, to mount in an HTTP server of your own (Express, Fastify,
   * the Nest module). `server.close()` closes its sessions.
   * @example
   * const mcp = server.createHttpHandler();
   * app.post('/mcp', express.json(), (req, res) => mcp.handle(req, res, { body: req.body }));
   */
  createHttpHandler(options: HttpHandlerOptions = {}): HttpHandler {
    const handler = waitingForSkills(http().createHttpHandler(this.httpServing(options), options, this.catalog, this.log), this.skills);
    this.track({
      close: () => handler.close(),
      shutdown: async (deadlineMs) => {
        await handler.drain(deadlineMs);
        await handler.close();
      },
    });
    return handler;
  }

  /** Stops every transport and endpoint this server serves. */
  async close(): Promise<void> {
    const open = [...this.open];
    this.open.clear();
    await Promise.all(open.map((o) => o.close()));
    await this.tasks.closeAll();
  }

  /**
   * Stops gracefully, for rolling deploys: HTTP endpoints stop listening and answer new requests 503 (a load
   * balancer retries them on another instance), readiness turns 503, calls in progress run on up to the
   * deadline, then every session and transport is closed.
   * @example process.once('SIGTERM', () => void server.shutdown({ deadlineMs: 10_000 }));
   */
  async shutdown(options: ShutdownOptions = {}): Promise<void> {
    const deadlineMs = options.deadlineMs ?? 10_000;
    const open = [...this.open];
    this.open.clear();
    await Promise.all(open.map((o) => (o.shutdown ? o.shutdown(deadlineMs) : o.close())));
    await this.tasks.closeAll();
  }

  /** On the first of these signals, shuts down, then lets the signal take its default course (exit). */
  private shutdownOn(signals: readonly NodeJS.Signals[], options: ShutdownOptions): void {
    const onSignal = (signal: NodeJS.Signals) => {
      for (const s of signals) process.off(s, onSignal);
      void this.shutdown(options).finally(() => {
        // Someone else listening decides what happens next; otherwise the signal's default ends the process.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    };
    for (const s of signals) process.once(s, onSignal);
  }

  private track(handle: Served): void {
    this.open.add(handle);
  }

  /** An endpoint's picker: its own `listing` and `describeConstraints`, else the server's. */
  private endpointPicker(options: { readonly listing?: unknown; readonly describeConstraints?: unknown }): ProfilePicker | undefined {
    if (options.listing === undefined && options.describeConstraints === undefined) return this.picker;
    const picker = this.pickerFor(options);
    this.warnings.endpoint(options.listing);
    return picker;
  }

  /** The `Server`s of an HTTP endpoint listing under `picker` (server/connections.ts); none: the server's. */
  /** What an HTTP endpoint serves: its listing profile's connections, and the server card when asked for. */
  private httpServing(options: HttpHandlerOptions = {}): HttpServing {
    const serving = this.connections.httpServing(this.endpointPicker(options));
    if (!options.serverCard) return serving;
    return { ...serving, serverCard: cardText(options, (card, primitives) => this.serverCard(card, primitives)) };
  }
}
