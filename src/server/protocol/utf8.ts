/**
 * The one UTF-8 rule of every transport: a message is read as UTF-8 or refused. Bad bytes are never replaced
 * with U+FFFD, which would hand a tool something the client never sent. HTTP answers such a body 400 (-32700),
 * stdio answers the line -32700.
 */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or `undefined` when they are not valid UTF-8. A byte-order mark is kept (the caller decides). */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
