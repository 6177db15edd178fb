import { UsageRangeError, UsageTypeError } from '../../errors';
import type { ProtocolError, RequestStateCodec, ServerContext } from '@modelcontextprotocol/server';
import { JsonRpcCode, sdk } from '../sdk/lazy';
import type { AuthInfo } from '../../invoke/request/request-context';
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from '../node-crypto';
import { isObjectLike } from '../../objects';

/**
 * What the server signs, and what each signature is bound to (issue 29). One secret (`requestStateSecret`)
 * gives, through HKDF, a key per use: the `requestState` MAC, the tag binding a state to its request, and page
 * cursors. A key is never used for two purposes, so a value signed for one use never verifies for another.
 *
 * A `requestState` carries the state a tool handed to `requireInput` and a binding tag: an HMAC of the method,
 * the item (tool name, resource URI, prompt name) and the caller (issuer, subject, client) it was minted for.
 * The SDK's codec checks the MAC and the lifetime before the handler runs; the handler, which knows the item,
 * checks the tag (the SDK's own `bind` hook sees the context but not the request's params, so not the item).
 */

export const MIN_SECRET_BYTES = 32;

/** Default lifetime of a minted `requestState`: ten minutes. */
export const DEFAULT_STATE_TTL_SECONDS = 600;

const TAG_BYTES = 16;

/** The keys derived from one secret. Each is made when first needed (`node:crypto` and Web Crypto load late). */
export interface SigningKeys {
  readonly state: () => Uint8Array;
  readonly binding: () => Uint8Array;
  readonly cursor: () => Uint8Array;
}

function checkedSecret(secret: string | Uint8Array): Uint8Array {
  const bytes = typeof secret === 'string' ? Buffer.byteLength(secret, 'utf8') : secret instanceof Uint8Array ? secret.byteLength : -1;
  if (bytes < MIN_SECRET_BYTES) {
    throw new UsageRangeError(
      `requestStateSecret must be a string or Uint8Array of at least ${MIN_SECRET_BYTES} bytes` +
        (bytes >= 0 ? ` (this one has ${bytes})` : '') +
        '; every instance behind one load balancer needs the same one, for example 64 hex characters from `openssl rand -hex 32`.',
    );
  }
  return typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Uint8Array.from(secret);
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The keys of a secret; a secret too short to sign with is refused at start-up, not at the first round.
 * Without a secret, a random one is made when first needed (one process then serves every round).
 */
export function signingKeys(secret: string | Uint8Array | undefined): SigningKeys {
  const root =
    secret === undefined
      ? once(() => randomBytes(MIN_SECRET_BYTES))
      : (
          (checked) => () =>
            checked
        )(checkedSecret(secret));
  const derive = (use: string) => once(() => hkdfSync('sha256', root(), 'onemodelcontext', `onemodelcontext ${use} v1`, 32));
  return { state: derive('requestState'), binding: derive('requestState binding'), cursor: derive('cursor') };
}

/** What a `requestState` is bound to: the request's method, its item, and its verified caller (if any). */
export interface StateBinding {
  readonly method: string;
  readonly item: string;
  readonly caller: AuthInfo | undefined;
}

/** The sealed payload: the tool's state and the binding tag. */
interface Sealed {
  readonly s?: unknown;
  readonly b: string;
}

function isSealed(value: unknown): value is Sealed {
  return isObjectLike(value) && typeof (value as { b?: unknown }).b === 'string';
}

function invalidState(): ProtocolError {
  // The SDK's own answer for a state that does not verify, so a client sees one shape whatever failed.
  return new (sdk().ProtocolError)(JsonRpcCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
}

/** Signs and checks `requestState` values bound to their request. */
export class RequestStates {
  private codec: RequestStateCodec | undefined;

  constructor(
    private readonly keys: SigningKeys,
    private readonly ttlSeconds: number = DEFAULT_STATE_TTL_SECONDS,
  ) {
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) {
      throw new UsageTypeError(
        `requestStateTtlSeconds takes a whole number of seconds from 1, for example { requestStateTtlSeconds: 600 }; got ${String(ttlSeconds)}.`,
      );
    }
  }

  /** The SDK's codec, made on first use: it needs Web Crypto, which many servers never use. */
  private sdk(): RequestStateCodec {
    return (this.codec ??= sdk().createRequestStateCodec({ key: this.keys.state(), ttlSeconds: this.ttlSeconds }));
  }

  /** The wire value of a tool's state, bound to the request that asks for input. */
  mint(state: unknown, binding: StateBinding): Promise<string> {
    return this.sdk().mint({ s: state, b: this.tag(binding) } satisfies Sealed);
  }

  /** The SDK's `requestState.verify` hook: MAC and lifetime. The binding is checked by {@link open}. */
  verify(state: string, ctx: ServerContext): Promise<unknown> {
    return this.sdk().verify(state, ctx);
  }

  /**
   * The tool's state of a verified `requestState` (`undefined` when the request has none), after checking it was
   * minted for this method, item and caller; a state minted for another is refused as invalid (-32602).
   */
  open(verified: unknown, binding: StateBinding): unknown {
    if (verified === undefined) return undefined;
    if (!isSealed(verified)) throw invalidState();
    const given = Buffer.from(verified.b, 'base64url');
    const expected = Buffer.from(this.tag(binding), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidState();
    return verified.s;
  }

  private tag(binding: StateBinding): string {
    const caller = binding.caller;
    // A JSON array: no separator a name could contain makes two bindings read alike.
    const bound = JSON.stringify([
      binding.method,
      binding.item,
      caller?.claims.iss ?? null,
      caller?.subject ?? null,
      caller?.clientId ?? null,
    ]);
    return createHmac('sha256', this.keys.binding()).update(bound).digest().subarray(0, TAG_BYTES).toString('base64url');
  }
}
