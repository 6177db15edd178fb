import { ProtocolError, ProtocolErrorCode, type RequestTypeMap, type ServerContext } from '@modelcontextprotocol/server';
import { absentNulls } from '../../invoke/reading/absent-nulls';
import { InputRequired } from '../../invoke/request/request-context';
import { callerKeyOf, verifiedCallerOf } from '../auth/caller';
import type { Visibility } from '../auth/visibility';
import { callOf, type Catalog, type RegisteredTool } from '../catalog/catalog';
import { TASKS_EXTENSION, TaskCreated, callAsTask, type TaskRequests } from '../tasks/handlers';
import type { CatalogServer } from './catalog-server';
import { countedAs } from './counted-as';
import { bindingOf, callerOf, contextInitOf, extensionsOf, negotiatedApps, profileOfRequest } from './handler-context';
import { listed } from './list-pages';
import { LIST_SHAPES, unknownToolMessage } from './rules';
import { inputRequiredOf, protocolErrorOf } from './outcomes';
import { boundedResult, DEFAULT_MAX_RESULT_BYTES } from './result-size';
import { SEARCH_FIRST_NAMES, searchFirstCall, searchFirstListings, type SearchFirstHost } from './search-first';
import type { ProtocolSettings } from './settings';
import type { RequestStates } from './signing';

/**
 * What the task methods need of a request. A 2025-era task belongs to its HTTP session, else its connection; a
 * 2026-07-28 task (no session there) to its verified caller, else to anyone who holds its unguessable id.
 */
export function taskRequestsOf(server: CatalogServer, states: RequestStates, visibility: Visibility): TaskRequests {
  return {
    modern: (ctx) => callerOf(server, ctx).modern,
    declared: (ctx) => extensionsOf(callerOf(server, ctx).clientCapabilities)?.[TASKS_EXTENSION] !== undefined,
    ownerOf: (ctx) => {
      if (!callerOf(server, ctx).modern) return ctx.sessionId ?? server.connectionId;
      const auth = verifiedCallerOf(ctx.http?.authInfo);
      return auth ? callerKeyOf(auth) : 'anyone';
    },
    countedAs: (ctx) => {
      const auth = verifiedCallerOf(ctx.http?.authInfo);
      if (auth) return callerKeyOf(auth);
      // Without a token: the client's address (HTTP), else the owner itself (a stdio or in-memory connection).
      return countedAs(ctx.http?.req, server, ctx.mcpReq.id) ?? ctx.sessionId ?? server.connectionId;
    },
    contextOf: (ctx, item) => contextInitOf(server, ctx, states, item),
    allows: (ctx, tool) => visibility.allows(ctx.http?.authInfo, { kind: 'tool', name: tool }, ctx.mcpReq.id, ctx.sessionId),
  };
}

/** Starts a task for a `tools/call` when the tool and the request call for one (throws it as {@link TaskCreated}). */
async function startTaskOf(
  server: CatalogServer,
  tool: RegisteredTool,
  params: unknown,
  ctx: ServerContext,
  settings: ProtocolSettings,
  visibility: Visibility,
): Promise<void> {
  const requests = taskRequestsOf(server, settings.states, visibility);
  const created = await callAsTask(tool, params as Readonly<Record<string, unknown>>, ctx, settings.tasks, requests);
  if (!created) return;
  if (!requests.modern(ctx)) server.followTasks(settings.tasks, requests.ownerOf(ctx));
  throw new TaskCreated(created);
}

/** What a `tools/call` of an unknown tool (or one `auth.authorize` refuses) answers. */
function unknownTool(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(name));
}

/** The tools this caller's `tools/list` holds, whole, under its profile (the MCP Apps listing when negotiated). */
async function visibleTools(
  server: CatalogServer,
  ctx: ServerContext,
  catalog: Catalog,
  settings: ProtocolSettings,
  visibility: Visibility,
) {
  const shown = await visibility.list(
    ctx.http?.authInfo,
    negotiatedApps(callerOf(server, ctx).clientCapabilities) ? 'tools' : 'plainTools',
  );
  return catalog.toolsUnder(shown, profileOfRequest(server, ctx, settings));
}

/** `tools/list` (the MCP Apps listing when negotiated) and `tools/call`; under `catalog: 'search'`, the three tools of search-first.ts. */
export function installToolHandlers(server: CatalogServer, catalog: Catalog, settings: ProtocolSettings, visibility: Visibility): void {
  server.handleHot('tools/list', async (req, ctx) =>
    listed(
      server,
      ctx,
      catalog,
      settings,
      LIST_SHAPES['tools/list'],
      settings.searchFirst
        ? searchFirstListings(profileOfRequest(server, ctx, settings))
        : await visibleTools(server, ctx, catalog, settings, visibility),
      req.params,
    ),
  );
  // Not an async function: the common call (no policy to wait on, no task) makes no promise of its own and waits on
  // nothing before the tool runs; the handler still only rejects, never throws (the SDK's wrapper awaits it).
  const callTool = (params: RequestTypeMap['tools/call']['params'], ctx: ServerContext) => {
    try {
      const tool = catalog.tool(params.name);
      // An app-only tool (no plain listing) is unknown to a caller without MCP Apps, as it is absent from its
      // listing; the caller's capabilities are read only for such a tool, off the common path.
      if (!tool || (!tool.plainListing && !negotiatedApps(callerOf(server, ctx).clientCapabilities))) throw unknownTool(params.name);
      // Without a policy `allows` answers at once.
      const allowed = visibility.allows(ctx.http?.authInfo, { kind: 'tool', name: tool.model.name }, ctx.mcpReq.id, ctx.sessionId);
      if (allowed !== true || tool.model.task) return checkedToolCall(server, tool, params, ctx, settings, visibility, allowed);
      return toolCall(server, tool, params, ctx, settings);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  if (!settings.searchFirst) {
    server.handleHot('tools/call', (req, ctx) => callTool(req.params, ctx));
    return;
  }
  const host: SearchFirstHost<ServerContext> = {
    visible: (ctx) => visibleTools(server, ctx, catalog, settings, visibility),
    indexed: () => catalog.listings.tools,
    call: (params, ctx) => callTool(params as RequestTypeMap['tools/call']['params'], ctx),
  };
  server.handleHot('tools/call', (req, ctx) =>
    SEARCH_FIRST_NAMES.has(req.params.name) ? searchFirstCall(req.params, host, ctx) : callTool(req.params, ctx),
  );
}

/** A `tools/call` once the policy answered (refused: an unknown tool), as a task when the tool and request call for one. */
async function checkedToolCall(
  server: CatalogServer,
  tool: RegisteredTool,
  params: RequestTypeMap['tools/call']['params'],
  ctx: ServerContext,
  settings: ProtocolSettings,
  visibility: Visibility,
  allowed: boolean | Promise<boolean>,
): Promise<unknown> {
  if (!(await allowed)) throw unknownTool(params.name);
  if (tool.model.task) await startTaskOf(server, tool, params, ctx, settings, visibility);
  return toolCall(server, tool, params, ctx, settings);
}

/** Calls the tool: errors are answered as results; only `requireInput` rejects. */
function toolCall(
  server: CatalogServer,
  tool: RegisteredTool,
  params: RequestTypeMap['tools/call']['params'],
  ctx: ServerContext,
  settings: ProtocolSettings,
): Promise<unknown> {
  // Under 'openai-strict' an optional argument listed as nullable is read as absent when it is `null`.
  const args =
    settings.profile !== undefined && profileOfRequest(server, ctx, settings).name === 'openai-strict'
      ? absentNulls(tool.model, params.arguments)
      : params.arguments;
  return callOf(tool)(args, contextInitOf(server, ctx, settings.states, tool.model.name)).then(
    (result) => boundedResult(result, params.name, settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES, settings.log),
    (error: unknown) => {
      if (error instanceof InputRequired) return inputRequiredOf(error, settings.states, bindingOf(ctx, tool.model.name));
      throw protocolErrorOf(error, settings.log, ctx);
    },
  );
}
