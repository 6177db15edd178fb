import type { ParamModel, ToolModel } from '../../schema/model';
import type { PromptModel } from '../../schema/members/prompts';
import type { ResourceModel } from '../../schema/members/resources';
import type { ToolCall } from '../../invoke/calling/invoker';
import type { TextMethodCall } from '../../invoke/calling/text-methods';
import type { ToolListing } from './listing';
import type { PromptListing, ResourceListing, UriMatcher } from './resource-listing';

/**
 * What the catalog holds for each tool, resource and prompt, computed once when it is added: its model, its
 * listing as sent, its compiled call and who may use it.
 */

/** Who may use an entry over HTTP with `auth`: the scopes a caller's token must grant, or anyone when public. */
export interface Access {
  readonly scopes: readonly string[];
  /** Listed to and answering callers without a token (with `auth: { allowAnonymous: true }`). */
  readonly public: boolean;
}

/** The decorated method behind an entry: what a Nest guard deciding its visibility runs for. */
export interface Member {
  readonly instance: object;
  readonly key: string | symbol;
}

/** The access of an entry added without any: it needs no scope and is not public. */
export const PRIVATE: Access = Object.freeze({ scopes: Object.freeze([]) as readonly string[], public: false });

export interface RegisteredTool extends Access {
  readonly model: ToolModel;
  readonly listing: ToolListing;
  /** The listing for clients that did not negotiate MCP Apps (no `_meta.ui`); none for an app-only tool. */
  readonly plainListing: ToolListing | undefined;
  readonly call: ToolCall;
  /** The decorated method, for a tool of a class (none for the quick path). */
  readonly member?: Member;
  /** The parameters that declare an `x-mcp-header` (SEP-2243), in their order; empty for most tools. */
  readonly headerParams: readonly ParamModel[];
}

export interface RegisteredResource extends Access {
  readonly model: ResourceModel;
  /** The decorated instance: `this` of its completion functions. */
  readonly instance: object;
  readonly key: string | symbol;
  readonly listing: ResourceListing;
  readonly match: UriMatcher;
  readonly call: TextMethodCall;
}

export interface RegisteredPrompt extends Access {
  readonly model: PromptModel;
  readonly instance: object;
  readonly key: string | symbol;
  readonly listing: PromptListing;
  readonly call: TextMethodCall;
}

export interface Listings {
  readonly tools: readonly ToolListing[];
  readonly plainTools: readonly ToolListing[];
  readonly resources: readonly ResourceListing[];
  readonly templates: readonly ResourceListing[];
  readonly prompts: readonly PromptListing[];
}

/** What a catalog entry is: the three MCP primitives. UI resources are resources. */
export type CatalogKind = 'tool' | 'resource' | 'prompt';

/** Told after every change of the catalog, with the kind of list that changed. */
export type CatalogListener = (kind: CatalogKind) => void;

type LazyCall = ToolCall & { compiled?: ToolCall };

/** Compiles a tool's reader and writer on its first call: a server with many tools starts without paying for all. */
export function lazily(compile: () => ToolCall): ToolCall {
  const call: LazyCall = (args, init) => (call.compiled ??= compile())(args, init);
  return call;
}

/** The tool's call: once compiled (its first call compiles it), the compiled one itself, without the lazy step. */
export function callOf(tool: RegisteredTool): ToolCall {
  return (tool.call as LazyCall).compiled ?? tool.call;
}
