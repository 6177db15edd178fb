import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * class-validator's barrel `cjs/decorator/decorators.js` requires all of its 113 decorator files at load
 * (`__exportStar(require('./string/IsEmail'), exports)` and so on), though a server uses a handful: each is
 * resolved, read, compiled and run, a third of what class-validator costs a starting process once validator.js
 * waits (lazy-validator-internals.ts). For a request of that barrel, the loader seam hands back a stand-in:
 * an object with the file's export names as getters that load the real file, through Node.js's own loader
 * and from the barrel as it would have, on the first read of any of them.
 *
 * Why the barrel's exports stay exactly the real ones: tsc's `__createBinding` copies a property's own
 * descriptor onto the re-exporting module when that module says `__esModule` and the property is an accessor,
 * so `require('class-validator').IsEmail` is the stand-in's getter, which returns the real `IsEmail`; names and
 * their order come from the file's tsc header (`exports.IsEmail = exports.isEmail = exports.IS_EMAIL = void 0;`,
 * assigned right to left, which is the real module's key order). A file whose text has no such header, that
 * exports in any other way, or that cannot be read, is loaded for real at once.
 */

/** A request of the barrel for one decorator file: `./<group>/<Name>`. */
const DECORATOR_FILE = /^\.\/[a-z-]+\/[\w-]+$/;

/** The barrel itself (any copy of class-validator). */
const BARREL = /[\\/]node_modules[\\/]class-validator[\\/]cjs[\\/]decorator[\\/]decorators\.js$/;

/** tsc's header line of a CommonJS module: every export name, assigned `void 0` before the module's body. */
const HEADER = /^((?:exports\.[A-Za-z_$][\w$]* = )+)void 0;$/m;

/** An export tsc writes as an accessor (`export { x } from './y'`) rather than by assignment. */
const OTHER_EXPORT = /Object\.defineProperty\(exports, "(?!__esModule")/;

/** Whether `request` from `parent` is one of the barrel's decorator files (checked after the cheap first-character test). */
export function isBarrelDecoratorRequest(request: string, parent: NodeJS.Module): boolean {
  return DECORATOR_FILE.test(request) && BARREL.test(parent.filename ?? '');
}

/**
 * The stand-in for one decorator file, or `undefined` when its export names cannot be read from its text (the
 * caller then loads it for real). `real` loads the module as the unhooked require would have.
 */
export function decoratorStandIn(request: string, parent: NodeJS.Module, real: () => unknown): object | undefined {
  const names = exportNames(join(dirname(parent.filename), `${request}.js`));
  if (names === undefined) return undefined;
  let loaded: Record<string, unknown> | undefined;
  const target = (): Record<string, unknown> => (loaded ??= real() as Record<string, unknown>);
  const standIn = {};
  // Not enumerable, as tsc defines it: `__exportStar` skips it, `__createBinding` reads it.
  Object.defineProperty(standIn, '__esModule', { value: true });
  for (const name of names) {
    Object.defineProperty(standIn, name, { enumerable: true, configurable: true, get: () => target()[name] });
  }
  return standIn;
}

/** The export names in the real module's key order, or `undefined` when the file has no tsc header. */
function exportNames(file: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const header = HEADER.exec(text);
  // Exports the header would not name (re-exports, accessors tsc writes for `export { x } from`): load it for real.
  if (header === null || text.includes('__exportStar') || OTHER_EXPORT.test(text)) return undefined;
  return header[1]
    .split(' = ')
    .filter((part) => part.startsWith('exports.'))
    .map((part) => part.slice('exports.'.length))
    .reverse();
}
