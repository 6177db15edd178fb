/**
 * One result per (immutable) model node: the model is built once, and everything derived from a node
 * (its schema fragment, its reader, its result writer) is derived once too.
 */
export function perNode<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = build(key);
      cache.set(key, value);
    }
    return value;
  };
}
