import { declaringClassOf } from '../decorators/classes';
import type { TypeHint } from '../decorators/hints';

/**
 * What `onemodelcontext generate` read from the source tree about one class: doc comments and the type
 * facts that `design:*` metadata erases. The generated module registers them by constructor; the schema
 * builder uses them wherever no decorator says otherwise (an explicit hint or description always wins).
 */

/** A literal default or initialiser as written in the source (an enum member is written as its value). */
export type SourceLiteral = string | number | boolean;

/** One parameter of a method, in declaration order (`this` parameters are not counted). */
export interface SourceParamFacts {
  /** The parameter's name as written in the source. */
  readonly name: string;
  /** The `@param` text of the method's doc comment. */
  readonly description?: string;
  /** The declared type as a type hint, when it has one. */
  readonly type?: TypeHint;
  /** `?`, `| undefined` or an initialiser: not required. */
  readonly optional?: boolean;
  /** The initialiser, when it is a literal the compiler can evaluate. */
  readonly default?: SourceLiteral;
  /** A `RequestContext` parameter: filled in by the server, not an argument. */
  readonly context?: true;
  /** An `AbortSignal` parameter: filled in by the server, not an argument. */
  readonly signal?: true;
}

/** One `@Tool`, `@Resource` or `@Prompt` method. */
export interface SourceMethodFacts {
  readonly name: string;
  /** The doc comment's summary. */
  readonly description?: string;
  readonly params: readonly SourceParamFacts[];
  /** The declared result (`Promise<T>` unwrapped) as a type hint, when it has one. */
  readonly returns?: TypeHint;
}

/** One instance property of a record class, decorated or not, in declaration order. */
export interface SourcePropertyFacts {
  readonly key: string;
  /** The property's doc comment. */
  readonly description?: string;
  readonly type?: TypeHint;
  /** The constructor `emitDecoratorMetadata` would have recorded, for a property without decorators. */
  readonly design?: Function;
  /** `?` or `| undefined`. */
  readonly optional?: boolean;
  /** The initialiser, when it is a literal the compiler can evaluate. */
  readonly default?: SourceLiteral;
}

/** Everything the generator knows about one class. */
export interface SourceFacts {
  readonly methods?: readonly SourceMethodFacts[];
  readonly properties?: readonly SourcePropertyFacts[];
}

interface Stored {
  readonly methods: ReadonlyMap<string, SourceMethodFacts>;
  readonly properties?: readonly SourcePropertyFacts[];
}

const registry = new WeakMap<Function, Stored>();

/**
 * Registers the facts `onemodelcontext generate` read for one class. Called by the generated module, which
 * the application imports once before adding its classes to a server; a second call for the same class
 * replaces the first.
 * @example
 * // src/onemodelcontext.facts.ts, written by `npx onemodelcontext generate`
 * registerSourceFacts(WeatherTools, {
 *   methods: [{ name: 'getForecast', description: 'Gets the forecast.', params: [{ name: 'days', type: Number, optional: true, default: 3 }] }],
 * });
 */
export function registerSourceFacts(ctor: Function, facts: SourceFacts): void {
  if (typeof ctor !== 'function') {
    throw new TypeError('registerSourceFacts() takes a class, as the module written by `onemodelcontext generate` passes it.');
  }
  const methods = new Map((facts.methods ?? []).map((m) => [m.name, Object.freeze({ ...m, params: Object.freeze([...m.params]) })]));
  registry.set(ctor, Object.freeze({ methods, properties: facts.properties && Object.freeze([...facts.properties]) }));
}

/** The facts of a method as its implementation is found on `ctor`: those of the class that declares it. */
export function methodFactsOf(ctor: Function, key: string | symbol): SourceMethodFacts | undefined {
  if (typeof key !== 'string') return undefined;
  const declaring = declaringClassOf(ctor, key);
  return declaring && registry.get(declaring)?.methods.get(key);
}

/** The property facts of `ctor` itself (not inherited), `undefined` when the generator did not read it. */
export function propertyFactsOf(ctor: Function): readonly SourcePropertyFacts[] | undefined {
  return registry.get(ctor)?.properties;
}
