/**
 * The class chain from the topmost base (below `Object`) down to `ctor`: the order in which inherited
 * metadata is read, so a derived class's records come last and win.
 */
export function classChainOf(ctor: Function): readonly Function[] {
  const chain: Function[] = [];
  for (let c: Function | null = ctor; c && c !== Object && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.unshift(c);
  return chain;
}

/** The class in `ctor`'s chain whose prototype declares `key` (the implementation a call reaches). */
export function declaringClassOf(ctor: Function, key: string | symbol): Function | undefined {
  return [...classChainOf(ctor)].reverse().find((c) => Object.prototype.hasOwnProperty.call(c.prototype, key));
}
