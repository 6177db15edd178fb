import { UsageTypeError } from '../../errors';
import { createHmac, timingSafeEqual } from '../node-crypto';
import type { ProtocolError } from '@modelcontextprotocol/server';
import { JsonRpcCode, sdk } from '../sdk/lazy';

/**
 * Pagination of the list methods. A cursor names the list it belongs to, the key of the last entry sent and its
 * position, and carries an HMAC tag, so it is opaque to the client and cannot be forged or moved to another
 * list: anything else is refused with -32602.
 *
 * The next page starts after the last entry sent when it is still listed, else at its old position. So when
 * the catalog changes between pages, an entry added since appears on a later page (entries are listed in the
 * order they were added), a removed one no longer appears, and nothing already sent is sent again unless the
 * last entry sent was itself removed and entries before it too (the position then falls back).
 */

/** The lists that page. */
export type ListName = 'tools' | 'resources' | 'resourceTemplates' | 'prompts' | 'tasks';

/** Most entries per page, for every list or per list; a list without a size sends everything on one page. */
export type PageSizes = number | Readonly<Partial<Record<ListName, number>>>;

/** One page and the cursor of the next, if there is one. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

const TAG_BYTES = 16;

function invalidCursor(): ProtocolError {
  return new (sdk().ProtocolError)(JsonRpcCode.InvalidParams, 'Invalid params: the cursor is not one this server issued for this list.');
}

/** Checks a page-size option: whole numbers from 1. */
export function checkPageSizes(sizes: PageSizes | undefined): void {
  if (sizes === undefined) return;
  const values = typeof sizes === 'number' ? [sizes] : Object.values(sizes);
  for (const size of values) {
    if (size !== undefined && (!Number.isInteger(size) || size < 1)) {
      throw new UsageTypeError(
        `McpServerOptions.pageSize takes whole numbers from 1, for example { pageSize: 50 } or { pageSize: { tools: 100 } }; got ${String(size)}.`,
      );
    }
  }
}

export class Pager {
  /** `key` may be given as a function, called once when the first cursor is signed or checked. */
  constructor(
    private key: Uint8Array | (() => Uint8Array),
    private readonly sizes: PageSizes | undefined,
  ) {}

  /** The page of `items` a request's `cursor` asks for; `keyOf` gives each entry's stable key (name or URI). */
  page<T>(list: ListName, items: readonly T[], keyOf: (item: T) => string, cursor: unknown): Page<T> {
    const size = typeof this.sizes === 'number' ? this.sizes : this.sizes?.[list];
    const start = cursor === undefined ? 0 : this.startOf(list, items, keyOf, cursor);
    if (size === undefined && start === 0) return { items };
    const end = size === undefined ? items.length : Math.min(items.length, start + size);
    const shown = items.slice(start, end);
    return end < items.length ? { items: shown, nextCursor: this.mint(list, end, keyOf(items[end - 1])) } : { items: shown };
  }

  private startOf<T>(list: ListName, items: readonly T[], keyOf: (item: T) => string, cursor: unknown): number {
    const [kind, position, last] = this.read(cursor);
    if (kind !== list) throw invalidCursor();
    const at = items.findIndex((item) => keyOf(item) === last);
    return at >= 0 ? at + 1 : Math.min(position, items.length);
  }

  private mint(list: ListName, position: number, last: string): string {
    const body = Buffer.from(JSON.stringify([list, position, last])).toString('base64url');
    return `${body}.${this.tag(body).toString('base64url')}`;
  }

  private read(cursor: unknown): [string, number, string] {
    if (typeof cursor !== 'string' || cursor.length > 4096) throw invalidCursor();
    const [body, tag, extra] = cursor.split('.');
    if (extra !== undefined || !body || !tag) throw invalidCursor();
    const given = Buffer.from(tag, 'base64url');
    if (given.length !== TAG_BYTES || !timingSafeEqual(given, this.tag(body))) throw invalidCursor();
    const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (
      !Array.isArray(value) ||
      typeof value[0] !== 'string' ||
      !Number.isInteger(value[1]) ||
      value[1] < 0 ||
      typeof value[2] !== 'string'
    )
      throw invalidCursor();
    return value as [string, number, string];
  }

  private tag(body: string): Buffer {
    if (typeof this.key === 'function') this.key = this.key();
    return createHmac('sha256', this.key).update(`cursor:${body}`).digest().subarray(0, TAG_BYTES);
  }
}
