import { callOf, type Catalog } from '../catalog/catalog';
import { negotiatesApps } from '../catalog/ui-resource';
import { APPS_EXTENSION } from '../catalog/catalog';
import { boundedResult, DEFAULT_MAX_RESULT_BYTES } from '../protocol/result-size';
import { LazyAbort } from '../protocol/lazy-abort';
import { ContextInit, UNDECLARED, type ContextChannel } from '../protocol/context-init';
import { errorAnswerOf } from '../protocol/wire';
import { InFlight } from '../protocol/in-flight';
import { abortEvery, cancelIn, plainlyValidToolResult, unknownToolMessage } from '../protocol/rules';
import { JsonRpcCode, sdk } from '../sdk/lazy';
import { InputRequired, type RequestContextInit } from '../../invoke/request/request-context';
import type { Log } from '../../log';
import { absentNulls } from '../../invoke/reading/absent-nulls';

/**
 * `tools/call` in the stdio loop (loop.ts), before the SDK is loaded: the same steps and the same bytes as the hot
 * path's (protocol/hot-path.ts) answer through the connection's `CatalogServer` (protocol/server.ts). A call is
 * taken only when nothing in it needs the SDK: no task, a client that declared neither sampling nor elicitation (so
 * the tool's `ctx.createMessage` and `ctx.elicit` are absent, as they are then on the SDK path). A tool that asks
 * for input (`requireInput`) is handed to the SDK, whose 2025-era shim runs that first round again, as the hot path
 * hands it. A result that is not plainly valid (protocol/rules.ts, the hot path's check) is checked by the SDK codec
 * (`checkToolResult`, loaded then); cancellation and the in-flight table are the hot path's too (rules.ts,
 * in-flight.ts).
 */

type Json = Readonly<Record<string, unknown>>;

/** What the calls need of the server. */
export interface CallSettings {
  readonly catalog: Catalog;
  readonly log: Log;
  readonly maxResultBytes?: number;
  /** The SDK's `tools/call` result check for a 2025-era revision (as `CatalogServer.checkToolResult`). */
  readonly checkToolResult: (version: string, result: unknown) => unknown;
  /** What `protocol/server.ts` answers for a failure of a call (logged there). */
  readonly protocolError: (error: unknown, id: string | number) => Error;
}

/** The connection as the loop opened it. */
export interface CallerView {
  readonly version: string;
  readonly clientInfo: Json;
  readonly capabilities: Json;
  /** Under 'openai-strict': a `null` of an optional argument is read as absent. */
  readonly nullsAbsent?: boolean;
}

/** Where a call's answers and notifications go; `handOver` gives its line to the SDK instead. */
export interface CallWire {
  write(message: object): void;
  handOver(line: Buffer): void;
}

/** A JSON-RPC error answer as the hot path writes it, with the 2025 codec's code mapping (-32002 is written -32602). */
const errorAnswer = (id: string | number, error: unknown) =>
  errorAnswerOf(id, error, (code) => (code === -32002 ? JsonRpcCode.InvalidParams : code));

const REDISPATCH = Symbol('redispatch');

export class LoopCalls {
  /** Calls in progress, by id: `notifications/cancelled` and the end of the connection abort them. */
  private readonly inFlight = new InFlight<LazyAbort>();
  /**
   * Where the calls' progress and log notifications go: the wire. No `logging/setLevel` has been received (it hands
   * the connection over), so no message is below a threshold.
   */
  private readonly channel: ContextChannel = {
    notify: (notification) => {
      this.wire.write({ jsonrpc: '2.0', ...notification });
      return Promise.resolve();
    },
    log: (level, data, logger) => this.channel.notify({ method: 'notifications/message', params: { level, data, logger } }),
  };

  constructor(
    private readonly settings: CallSettings,
    private readonly wire: CallWire,
  ) {}

  get running(): boolean {
    return this.inFlight.size > 0;
  }

  /**
   * Takes a `tools/call` the rules admitted (protocol/rules.ts `hotRequest`: params only `_meta`, a string `name`,
   * copyable `arguments`); `false` hands it over.
   */
  take(message: Json, line: Buffer, caller: CallerView): boolean {
    const params = message.params as Json;
    const id = message.id as string | number;
    const name = params.name as string;
    if (caller.capabilities.sampling !== undefined || caller.capabilities.elicitation !== undefined) return false;
    const tool = this.settings.catalog.tool(name);
    const apps = () => negotiatesApps((caller.capabilities.extensions as Json | undefined)?.[APPS_EXTENSION]);
    if (tool?.model.task !== undefined) return false;
    if (!tool || (!tool.plainListing && !apps())) {
      this.wire.write(errorAnswer(id, { code: JsonRpcCode.InvalidParams, message: unknownToolMessage(name) }));
      return true;
    }
    const abort = new LazyAbort();
    this.inFlight.set(id, abort);
    const meta = params._meta as Json | undefined;
    const init = new ContextInit(
      abort,
      this.channel,
      id,
      undefined,
      caller.version,
      caller.clientInfo as RequestContextInit['clientInfo'],
      caller.capabilities,
      meta,
      UNDECLARED,
      undefined,
      undefined,
      undefined,
    );
    const { log, maxResultBytes, checkToolResult } = this.settings;
    Promise.resolve()
      .then(() => callOf(tool)(caller.nullsAbsent ? absentNulls(tool.model, params.arguments) : params.arguments, init))
      .then(
        (result) => {
          const bounded = boundedResult(result, name, maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES, log);
          return plainlyValidToolResult(bounded) ? bounded : checkToolResult(caller.version, bounded);
        },
        (error: unknown) => {
          if (error instanceof InputRequired) return REDISPATCH;
          throw this.settings.protocolError(error, id);
        },
      )
      .then(
        (result) => {
          if (abort.aborted) return;
          if (result === REDISPATCH) return this.wire.handOver(line);
          this.wire.write({ result, jsonrpc: '2.0', id });
        },
        (error: unknown) => {
          if (!abort.aborted) this.wire.write(errorAnswer(id, error));
        },
      )
      .finally(() => {
        this.inFlight.settle(id, abort);
      });
    return true;
  }

  /** `notifications/cancelled` for one of the loop's calls: aborted as the SDK aborts (nothing is answered then). */
  cancelled(params: unknown): boolean {
    return cancelIn(this.inFlight, params);
  }

  /** The connection closed: every call in progress is aborted, as the SDK aborts its own, and answers nothing. */
  abortAll(): void {
    // No call in progress: the SDK (whose error this is) is not loaded for nothing.
    if (this.inFlight.size === 0) return;
    const { SdkError, SdkErrorCode } = sdk();
    abortEvery(this.inFlight, new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  }
}
