import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { Icon } from '../../decorators/listing-options';
import { UsageError } from '../../errors';
import type { ToolListing } from './listing';
import type { PromptListing, ResourceListing } from './resource-listing';

/**
 * The MCP server card (the server-cards proposal of the MCP specification, SEP-2127): what a client may know of a
 * server before it connects, served at `/.well-known/mcp/server-card.json` by `serveHttp({ serverCard })` and
 * written by `onemodelcontext manifest --card`. One builder for both, so the two never disagree.
 */

/** The card format's schema URI, as the proposal names it (it evolves in place per major version). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** Where the card is served: the path the proposal names, and the same with `.json` (both answer the same document). */
export const SERVER_CARD_PATHS: readonly string[] = ['/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card'];

/** The registry's name rule, which the card shares: a reverse-DNS namespace, one slash, a name. */
export const REVERSE_DNS_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** What a card says beyond the server's own info (docs/publishing.md). */
export interface ServerCardOptions {
  /** The reverse-DNS name, such as `io.github.you/weather`; default the server's `name` when it has that form. */
  readonly name?: string;
  /** A sentence on what the server does. */
  readonly description?: string;
  /** The public URL of the Streamable HTTP endpoint, listed under `remotes`; none when left out. */
  readonly url?: string;
  /** The project's homepage. */
  readonly websiteUrl?: string;
}

/** What the card is built from. */
export interface CardSource {
  readonly info: { readonly name: string; readonly version: string; readonly title?: string; readonly icons?: readonly Icon[] };
  readonly capabilities: ServerCapabilities;
  /** The listings to show, or `undefined` to leave the primitives out (they are then only known after connecting). */
  readonly listings?: {
    readonly tools: readonly ToolListing[];
    readonly resources: readonly ResourceListing[];
    readonly prompts: readonly PromptListing[];
  };
}

/** The card, its keys in the proposal's order. */
export function serverCardOf(source: CardSource, options: ServerCardOptions = {}): Record<string, unknown> {
  const { info, listings } = source;
  const name = options.name ?? info.name;
  if (typeof name !== 'string' || !REVERSE_DNS_NAME.test(name) || name.length > 200) {
    throw new UsageError(
      `A server card needs a reverse-DNS name with one slash, such as 'io.github.you/weather'; got ${JSON.stringify(name)}. ` +
        'Give serverCard: { name } (or --name on the command line).',
    );
  }
  const card: Record<string, unknown> = { $schema: SERVER_CARD_SCHEMA, name, version: info.version };
  if (options.description !== undefined) card.description = options.description;
  if (info.title !== undefined) card.title = info.title;
  if (options.websiteUrl !== undefined) card.websiteUrl = options.websiteUrl;
  if (info.icons !== undefined) card.icons = info.icons;
  if (options.url !== undefined) card.remotes = [{ type: 'streamable-http', url: checkUrl(options.url) }];
  card.capabilities = source.capabilities;
  if (listings) {
    if (listings.resources.length > 0) card.resources = listings.resources;
    card.tools = listings.tools;
    if (listings.prompts.length > 0) card.prompts = listings.prompts;
  }
  return card;
}

function checkUrl(url: unknown): string {
  if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url) || !URL.canParse(url)) {
    throw new UsageError(
      `A server card's url is the endpoint's public http(s) URL, such as 'https://mcp.example.com/mcp'; got ${JSON.stringify(url)}.`,
    );
  }
  return url;
}
