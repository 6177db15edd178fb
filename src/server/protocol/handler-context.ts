import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { RequestContextInit } from '../../invoke/request/request-context';
import { EXACT, type Profile } from '../../schema/profiles';
import { verifiedCallerOf } from '../auth/caller';
import { APPS_EXTENSION } from '../catalog/catalog';
import { negotiatesApps } from '../catalog/ui-resource';
import { askClient } from '../sdk/server';
import { ContextInit, UNDECLARED, type ContextChannel, type ContextRequests } from './context-init';
import { incomingOf } from './incoming';
import type { ProtocolSettings } from './settings';
import type { RequestStates, StateBinding } from './signing';

/**
 * What a handler reads of the SDK's handler context: who the caller is (the 2026-07-28 envelope, else what
 * `initialize` negotiated), its listing profile, what a `requestState` is bound to, and the tool's `RequestContext`.
 */

export type Capabilities = Readonly<Record<string, unknown>> | undefined;

/** The caller as this request sees it: the 2026-07-28 envelope, else what `initialize` negotiated. */
export function callerOf(server: Server, ctx: ServerContext) {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  return {
    modern: envelope !== undefined,
    protocolVersion: (envelope?.[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? server.getNegotiatedProtocolVersion(),
    clientInfo: (envelope?.[CLIENT_INFO_META_KEY] ?? server.getClientVersion()) as RequestContextInit['clientInfo'],
    clientCapabilities: (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities()) as Capabilities,
  };
}

/** A 2025-era connection's profile, picked once (its client is the one `initialize` named). */
const connectionProfiles = new WeakMap<Server, Profile>();

/** The listing profile of this request's client: per request on 2026-07-28, once per connection in the 2025 era. */
export function profileOfRequest(server: Server, ctx: ServerContext, settings: ProtocolSettings): Profile {
  const pick = settings.profile;
  if (pick === undefined) return EXACT;
  const caller = callerOf(server, ctx);
  const client = () => ({
    clientInfo: caller.clientInfo,
    capabilities: caller.clientCapabilities,
    protocolVersion: caller.protocolVersion,
  });
  if (caller.modern) return pick(client());
  let profile = connectionProfiles.get(server);
  if (profile === undefined) connectionProfiles.set(server, (profile = pick(client())));
  return profile;
}

export function extensionsOf(capabilities: Capabilities): Capabilities {
  return capabilities?.extensions as Capabilities;
}

export function negotiatedApps(capabilities: Capabilities): boolean {
  return negotiatesApps(extensionsOf(capabilities)?.[APPS_EXTENSION]);
}

/** What a `requestState` of this request is bound to: its method, `item` (tool, prompt, resource URI) and caller. */
export function bindingOf(ctx: ServerContext, item: string): StateBinding {
  return { method: ctx.mcpReq.method, item, caller: verifiedCallerOf(ctx.http?.authInfo) };
}

/** Why a 2026-07-28 request has no sampling nor elicitation: the revision has no server-to-client requests. */
const MODERN_REQUESTS: ContextRequests = {
  unavailable: 'protocol revision 2026-07-28 has no server-to-client requests; use ctx.requireInput().',
};

/**
 * Sampling and elicitation of a 2025-era request, for the capabilities the client declared: they go out tied to
 * this request (relatedRequestId), so they travel on its own response stream.
 */
function legacyRequestsOf(ctx: ServerContext, caps: Capabilities): ContextRequests {
  if (caps?.sampling === undefined && caps?.elicitation === undefined) return UNDECLARED;
  return {
    createMessage: caps.sampling === undefined ? undefined : (params: object) => askClient(ctx, 'sampling/createMessage', params),
    elicit: caps.elicitation === undefined ? undefined : (params: object) => askClient(ctx, 'elicitation/create', params),
    unavailable: UNDECLARED.unavailable,
  };
}

/**
 * The `RequestContext` of one request for `item` (the tool or prompt name, the resource URI), from the SDK's
 * handler context; a `requestState` minted for another method, item or caller is refused here (-32602).
 */
export function contextInitOf(server: Server, ctx: ServerContext, states: RequestStates, item: string): RequestContextInit {
  const { mcpReq } = ctx;
  const caller = callerOf(server, ctx);
  const caps = caller.clientCapabilities;
  const auth = verifiedCallerOf(ctx.http?.authInfo);
  const state = mcpReq.requestState();
  return new ContextInit(
    mcpReq,
    mcpReq as ContextChannel,
    mcpReq.id,
    ctx.sessionId,
    caller.protocolVersion,
    caller.clientInfo,
    caps,
    mcpReq._meta as Readonly<Record<string, unknown>> | undefined,
    caller.modern ? MODERN_REQUESTS : legacyRequestsOf(ctx, caps),
    mcpReq.inputResponses as Readonly<Record<string, unknown>> | undefined,
    // The binding is made only for a state to check (states.open answers `undefined` for none).
    state === undefined ? undefined : states.open(state, bindingOf(ctx, item)),
    auth,
    incomingOf(ctx),
  );
}
