import type { BinaryLike, Hmac, KeyObject } from 'node:crypto';

/**
 * `node:crypto`, loaded on first use. Loading it costs a server ~5-15 ms at start-up (some twenty internal
 * modules), and a stdio server that never signs a page cursor or `requestState`, and never creates a task,
 * never needs it. The HTTP layer, loaded only to serve HTTP, imports `node:crypto` itself.
 */
type NodeCrypto = typeof import('node:crypto');

let loaded: NodeCrypto | undefined;

function nodeCrypto(): NodeCrypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('node:crypto') as NodeCrypto);
}

export function randomUUID(): string {
  return nodeCrypto().randomUUID();
}

export function randomBytes(size: number): Buffer {
  return nodeCrypto().randomBytes(size);
}

export function createHmac(algorithm: string, key: BinaryLike | KeyObject): Hmac {
  return nodeCrypto().createHmac(algorithm, key);
}

export function timingSafeEqual(a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView): boolean {
  return nodeCrypto().timingSafeEqual(a, b);
}

export function hkdfSync(digest: string, ikm: Uint8Array, salt: string, info: string, length: number): Uint8Array {
  return new Uint8Array(nodeCrypto().hkdfSync(digest, ikm, salt, info, length));
}
