import * as nodeModule from 'node:module';
import { decoratorStandIn, isBarrelDecoratorRequest } from './lazy-validator-decorators';

/**
 * class-validator's decorator files require validator.js and libphonenumber-js at their top (113 and 73 modules,
 * about half of what `require('class-validator')` costs a starting process), though a decorator only records
 * metadata and no rule runs before a tool is first called. Loaded before class-validator, the package stands
 * in for exactly those requires: class-validator gets an object that loads the real module, through Node.js's
 * own loader and from the requiring file as it would have, on the first call or property read. The verdicts
 * and messages stay class-validator's; only the moment validator.js is loaded moves.
 *
 * What class-validator 0.14 and 0.15 do with those modules, and what each stand-in therefore offers:
 *   `validator/lib/<rule>`   `__importDefault(require(...))`, then calls `.default(value, ...)`: the real
 *                            module is the rule's function itself (no `__esModule`), so the stand-in is a
 *                            function, and `__importDefault` wraps it as it wraps the real one.
 *   `validator`              `__importStar(require('validator'))` (IsStrongPassword), then `validator.<rule>(...)`:
 *                            the stand-in says `__esModule`, so the helper keeps it rather than copying every
 *                            key (which would load validator.js at once), and reads the rule on first call.
 *   `libphonenumber-js/max`  `max_1.parsePhoneNumber(...)` (IsPhoneNumber): property reads.
 *
 * This is the one place that touches Node.js's `Module._load`, the loader's entry every `require` goes
 * through (what require hooks use): the seam checks it is there and a function, and otherwise installs
 * nothing, as it does when class-validator is already loaded. Only requires made by class-validator's own
 * files are answered this way; the application's own `require('validator')` gets the real module. The same
 * seam answers the requires of class-validator's decorator barrel (lazy-validator-decorators.ts).
 */

type Load = (this: unknown, request: string, parent: NodeJS.Module | undefined, isMain: boolean) => unknown;

/** A file of class-validator's CommonJS build (any copy of the package). */
const CLASS_VALIDATOR_FILE = /[\\/]node_modules[\\/]class-validator[\\/]cjs[\\/]/;

/** The requests stood in for: validator.js (its index and its rules) and libphonenumber-js's metadata build. */
const DEFERRED = /^(?:validator(?:\/lib\/[\w]+(?:\.js)?)?|libphonenumber-js\/max)$/;

let installed = false;

/** Whether the stand-ins are in place (tests check the lever is active). */
export function validatorInternalsDeferred(): boolean {
  return installed;
}

/** Installs the stand-ins before class-validator loads; false when the loader offers no seam or it is too late. */
export function deferValidatorInternals(): boolean {
  if (installed) return true;
  const loader = nodeModule.Module as unknown as { _load?: unknown };
  if (typeof loader._load !== 'function' || classValidatorLoaded()) return false;
  const load = loader._load as Load;
  loader._load = function deferringLoad(this: unknown, request: string, parent: NodeJS.Module | undefined, isMain: boolean) {
    // The cheap tests first: every require of the process passes here.
    const first = request.charCodeAt(0);
    if (parent !== undefined && (first === 118 || first === 108) && DEFERRED.test(request)) {
      if (CLASS_VALIDATOR_FILE.test(parent.filename ?? '')) return standIn(request, () => load.call(this, request, parent, false));
    } else if (parent !== undefined && first === 46 && isBarrelDecoratorRequest(request, parent)) {
      const decorator = decoratorStandIn(request, parent, () => load.call(this, request, parent, false));
      if (decorator !== undefined) return decorator;
    }
    // eslint-disable-next-line prefer-rest-params -- the loader's own arguments, whatever their number
    return Reflect.apply(load, this, arguments);
  };
  installed = true;
  return true;
}

/** class-validator in the module cache already: its files have required validator.js, nothing is left to defer. */
function classValidatorLoaded(): boolean {
  for (const file in require.cache) if (CLASS_VALIDATOR_FILE.test(file)) return true;
  return false;
}

/** The stand-in for one request; `real` loads the module as the unhooked require would have. */
function standIn(request: string, real: () => unknown): unknown {
  let loaded: unknown;
  let done = false;
  const target = (): Record<PropertyKey, unknown> => {
    if (!done) {
      loaded = real();
      done = true;
    }
    return loaded as Record<PropertyKey, unknown>;
  };
  if (request.startsWith('validator/lib/')) {
    // A rule's module is its function; should a later validator.js export `{ default }`, that is called.
    return function deferredRule(this: unknown, ...args: unknown[]): unknown {
      const rule = target();
      return Reflect.apply((typeof rule === 'function' ? rule : rule.default) as Function, this, args);
    };
  }
  return new Proxy(
    {},
    {
      get: (_, key) => (key === '__esModule' && request === 'validator' ? true : Reflect.get(target(), key)),
      has: (_, key) => Reflect.has(target(), key),
    },
  );
}
