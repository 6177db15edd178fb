import type { TypeHint } from './hints';
import type { CacheOptions, Icon } from './listing-options';
import { checkBoolean, checkPublic, checkScopes, checkString, memberDecorator, refuseBareUse, snapshotted, type MemberDecorator } from './member';

/** Options of {@link Tool}. */
export interface ToolOptions {
  /** The tool name; default: the method name in snake_case without a trailing `Async`. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  readonly openWorld?: boolean;
  /** Type hint of the result, needed for async methods (metadata only says `Promise`). */
  readonly returns?: TypeHint;
  /** The `ui://` resource that renders the result (MCP Apps). */
  readonly uiResource?: string;
  /** Who may call the tool under MCP Apps; default both. */
  readonly uiVisibility?: readonly ('model' | 'app')[];
  /**
   * Lets a client run the tool as a task (a long-running call it polls): `'optional'` (either way) or
   * `'required'` (only as a task). Listed as `execution.taskSupport`.
   */
  readonly task?: 'optional' | 'required';
  /**
   * With `task`, on 2026-07-28: a call without `inputResponses` runs as an ordinary call, so the input the tool
   * asks for with `ctx.requireInput` goes by multi-round trip on `tools/call`; the call that brings the answers
   * starts the task. Default `false`: every call from a client that declared the tasks extension starts one.
   */
  readonly taskAfterInput?: boolean;
  /** Scopes a caller's token must grant, over HTTP with `auth`; default: the class's `@Scopes`, else none. */
  readonly scopes?: readonly string[];
  /**
   * Over HTTP with `auth: { allowAnonymous: true }`: listed to and callable by callers without a token (it needs
   * no scope). Its `securitySchemes` say `noauth`.
   */
  readonly public?: boolean;
  /** Icons a client can show next to the tool (listed from protocol revision 2025-11-25). */
  readonly icons?: readonly Icon[];
  /** How long a client may reuse a `tools/list` that holds this tool (protocol revision 2026-07-28). */
  readonly cache?: CacheOptions;
}

/**
 * Makes an instance method an MCP tool.
 * @example
 * class Weather {
 *   @Tool({ readOnly: true })
 *   getForecast(city: string, days: number = 3): string { ... }
 * }
 */
export function Tool(nameOrOptions?: string | ToolOptions): MemberDecorator {
  refuseBareUse('Tool', nameOrOptions, arguments[1]);
  const options: ToolOptions = typeof nameOrOptions === 'string' ? { name: nameOrOptions } : snapshotted({ ...nameOrOptions }, ['icons', 'cache']);
  for (const key of ['name', 'title', 'description', 'uiResource'] as const) checkString('Tool', key, options[key]);
  for (const key of ['readOnly', 'destructive', 'idempotent', 'openWorld', 'taskAfterInput'] as const) checkBoolean('Tool', key, options[key]);
  if (options.task !== undefined && options.task !== 'optional' && options.task !== 'required') {
    throw new TypeError(`@Tool(): 'task' must be 'optional' or 'required'.`);
  }
  if (options.uiVisibility !== undefined && !Array.isArray(options.uiVisibility)) {
    throw new TypeError(`@Tool(): 'uiVisibility' must be an array such as ['model', 'app'].`);
  }
  const scopes = checkPublic('@Tool()', options.public, checkScopes('@Tool()', options.scopes));
  return memberDecorator({ kind: 'tool', options: { ...options, scopes, uiVisibility: options.uiVisibility && Object.freeze([...options.uiVisibility]) } });
}
