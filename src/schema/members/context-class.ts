/**
 * How the schema builder knows the request-context parameter without importing `RequestContext`: the class sits
 * on the invoke floor (`ctx.elicit(message, Form)` reads the answer with the invoke floor's reader), and a floor
 * never imports one above it (docs/architecture.md). The class marks itself once when its module loads; only the
 * class that carries the mark as its own is the context parameter, so a subclass stays an ordinary argument type.
 */
const CONTEXT_CLASS = Symbol('onemodelcontext:request-context');

/** Marks `ctor` as the class whose parameters are filled in with the request's context. */
export function markContextClass(ctor: Function): void {
  Object.defineProperty(ctor, CONTEXT_CLASS, { value: true });
}

/** Stands in for the context class's design type where only generated facts describe a method. */
export const CONTEXT_DESIGN: unknown = CONTEXT_CLASS;

/** Whether a parameter's design type is the request-context class (or the stand-in for it). */
export function isContextClass(design: unknown): boolean {
  return design === CONTEXT_DESIGN || (typeof design === 'function' && Object.prototype.hasOwnProperty.call(design, CONTEXT_CLASS));
}
