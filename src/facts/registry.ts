import { UsageError, UsageTypeError } from '../errors';
import { declaringClassOf } from '../decorators/classes';
import { decoratedClassesNamed } from '../decorators/metadata';
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
 * Facts of classes the generated module cannot import (not exported from their module), by class name: a
 * class is matched to them the first time it is looked up without facts of its own (the generator refuses two
 * such classes with one name).
 */
const byName = new Map<string, Stored>();

function lookup(ctor: Function): Stored | undefined {
  const own = registry.get(ctor);
  if (own || byName.size === 0 || !ctor.name) return own;
  const named = byName.get(ctor.name);
  if (named) registry.set(ctor, named);
  return named;
}

/** Whether any class is registered by name (a generated module reached a class that is not exported). */
export function hasFactsByName(name: string): boolean {
  return byName.has(name);
}

/**
 * A type hint for a class the generated module cannot import (it is not exported): the class of that name
 * that this package's decorators (`@Field`, `@Param`, `@Tool` ...) were applied to. Written by
 * `onemodelcontext generate` as `() => SourceClass('Name')`.
 */
export function SourceClass(name: string): Function {
  const found = decoratedClassesNamed(name);
  if (found.length === 1) return found[0];
  throw new UsageError(
    found.length === 0
      ? `the class ${name} is not exported and has no decorator of onemodelcontext (@Field, @Param, @Tool ...), so the facts module cannot find it; export it, or decorate one of its properties with @Field()`
      : `${found.length} classes named ${name} have decorators of onemodelcontext and ${name} is not exported; export it or rename one`,
  );
}

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
export function registerSourceFacts(ctor: Function | string, facts: SourceFacts): void {
  if (typeof ctor !== 'function' && (typeof ctor !== 'string' || ctor.length === 0)) {
    throw new UsageTypeError(
      'registerSourceFacts() takes a class, or the name of a class that is not exported, as the module written by `onemodelcontext generate` passes it.',
    );
  }
  const methods = new Map((facts.methods ?? []).map((m) => [m.name, Object.freeze({ ...m, params: Object.freeze([...m.params]) })]));
  const stored = Object.freeze({ methods, properties: facts.properties && Object.freeze([...facts.properties]) });
  if (typeof ctor === 'string') byName.set(ctor, stored);
  else registry.set(ctor, stored);
}

/** The facts of a method as its implementation is found on `ctor`: those of the class that declares it. */
export function methodFactsOf(ctor: Function, key: string | symbol): SourceMethodFacts | undefined {
  if (typeof key !== 'string') return undefined;
  const declaring = declaringClassOf(ctor, key);
  return declaring && lookup(declaring)?.methods.get(key);
}

/** The property facts of `ctor` itself (not inherited), `undefined` when the generator did not read it. */
export function propertyFactsOf(ctor: Function): readonly SourcePropertyFacts[] | undefined {
  return lookup(ctor)?.properties;
}
