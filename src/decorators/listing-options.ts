/**
 * The listing metadata options shared by `@Tool`, `@Resource`, `@Prompt`, the quick path and the server info:
 * icons, resource annotations, cache hints and completions. Decorators record them as given; the schema builder
 * checks them (OMCG0014) when the class is added.
 */

/**
 * An icon a client can show next to a tool, resource, prompt or the server (protocol revision 2025-11-25 and later).
 * @example
 * const icon: Icon = { src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] };
 */
export interface Icon {
  /** An `https:` or `http:` URL, or a `data:image/...;base64,...` URI. */
  readonly src: string;
  /** The image type when the source does not say, such as `image/png` or `image/svg+xml`. */
  readonly mimeType?: string;
  /** Sizes the icon fits, `WxH` such as `48x48`, or `any` for scalable images. */
  readonly sizes?: readonly string[];
  /** The background the icon is drawn for. */
  readonly theme?: 'light' | 'dark';
}

/**
 * Hints for the client about a resource or resource template (`annotations` in its listing).
 * @example
 * @Resource('docs://readme', { annotations: { audience: ['user'], priority: 0.8, lastModified: '2026-01-31T12:00:00Z' } })
 */
export interface ResourceAnnotations {
  /** Who the content is meant for. */
  readonly audience?: readonly ('user' | 'assistant')[];
  /** How important the content is, from 0 (optional) to 1 (required). */
  readonly priority?: number;
  /** When the content last changed: an ISO 8601 date-time or a `Date` (listed from revision 2025-06-18). */
  readonly lastModified?: string | Date;
}

/**
 * How long a client may reuse what the server lists or reads (protocol revision 2026-07-28, `ttlMs` and
 * `cacheScope`). A list's hint is the most careful of its entries: the shortest `ttlMs`, and `private` when
 * any entry is.
 * @example
 * @Tool({ cache: { ttlMs: 60_000, scope: 'public' } })
 */
export interface CacheOptions {
  /** Milliseconds the result may be reused; `0` means not at all. */
  readonly ttlMs: number;
  /** `public`: any cache may share it across callers; `private` (default): only the caller's own. */
  readonly scope?: 'public' | 'private';
}

/**
 * What a completion function is told besides the typed value.
 * @example
 * const complete = (value: string, context: CompletionContext) => cities(context.arguments.country).filter((c) => c.startsWith(value));
 */
export interface CompletionContext {
  /** The prompt argument or template variable being completed. */
  readonly argument: string;
  /** The other arguments or variables the client has already resolved (text, as sent). */
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Completes a prompt argument or resource-template variable: the values that fit what was typed so far. Called with
 * the decorated instance as `this`. The server sends the first 100 values, with the total count.
 * @example
 * const cities: Completer = (value) => ['Paris', 'Prague', 'Porto'].filter((c) => c.startsWith(value));
 */
export type Completer = (value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>;
