import { setClassScopes } from './metadata';
import { checkScopes } from './member';

/**
 * The scopes a caller's token must grant for every tool, resource and prompt of a class (over HTTP with
 * `auth`). A member's own `scopes` option replaces this default; `scopes: []` opens a member to any
 * authenticated caller.
 * @example
 * @Scopes('orders:read')
 * class Orders {
 *   @Tool() listOrders(): string[] { ... }                          // needs orders:read
 *   @Tool({ scopes: ['orders:write'] }) placeOrder(item: string) { ... } // needs orders:write
 * }
 */
export function Scopes(...scopes: string[]): ClassDecorator {
  const checked = checkScopes('@Scopes()', scopes) ?? [];
  return (target) => setClassScopes(target, checked);
}
