import type { Completer, Icon } from '../../decorators/listing-options';
import { isObject, isPlainObject } from '../../objects';
import type { Problems } from '../diagnostics';
import type { CacheHint, ParamModel } from '../model';

/**
 * Checks the listing metadata options (icons, resource size and annotations, cache hints, completions) when a
 * class is added, and turns them into frozen model values. Anything that is not what the protocol defines, or
 * that would bloat every listing, is a definition problem (OMCG0014), never something sent as given.
 */

/** Checked resource annotations: `lastModified` as an ISO 8601 string. */
export interface ResourceAnnotationsModel {
  readonly audience?: readonly ('user' | 'assistant')[];
  readonly priority?: number;
  readonly lastModified?: string;
}

/** Most icons per entry, and most sizes per icon. */
const MAX_ICONS = 16;
const MAX_SIZES = 16;
/** An icon is sent in every listing that holds its entry: a URL stays short, an inline image small. */
const MAX_URL_LENGTH = 2048;
const MAX_DATA_URI_LENGTH = 65_536;

const DATA_URI = /^data:image\/[a-z0-9][a-z0-9.+-]*(;[a-z0-9-]+=[a-z0-9.+-]+)*;base64,[A-Za-z0-9+/]+={0,2}$/i;
const IMAGE_MIME = /^image\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const ICON_SIZE = /^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$/;
/** RFC 3339 date-time, the form the protocol's `lastModified` takes. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

const ICON_KEYS: ReadonlySet<string> = new Set(['src', 'mimeType', 'sizes', 'theme']);
const ANNOTATION_KEYS: ReadonlySet<string> = new Set(['audience', 'priority', 'lastModified']);
const CACHE_KEYS: ReadonlySet<string> = new Set(['ttlMs', 'scope']);

/** A value in a message: short, and never more than a glimpse of what was given. */
function shown(value: unknown): string {
  const text =
    typeof value === 'string' ? `'${value}'` : Array.isArray(value) ? arrayText(value) : isObject(value) ? 'an object' : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A short array as JSON (`["user","user"]`); one that does not serialise is just 'an array'. */
function arrayText(value: readonly unknown[]): string {
  try {
    return JSON.stringify(value.slice(0, 8)) ?? 'an array';
  } catch {
    return 'an array';
  }
}

function unknownKeys(value: Readonly<Record<string, unknown>>, known: ReadonlySet<string>): string[] {
  return Object.keys(value).filter((k) => !known.has(k));
}

/** Why an icon's `src` cannot be listed, or `undefined` when it can. */
function srcProblem(src: unknown): string | undefined {
  if (typeof src !== 'string' || src.length === 0) return `has src ${shown(src)}, not a URI.`;
  if (src.startsWith('data:')) {
    if (src.length > MAX_DATA_URI_LENGTH)
      return `has a data: URI of ${src.length} characters, more than ${MAX_DATA_URI_LENGTH}; it would be sent in every listing.`;
    return DATA_URI.test(src) ? undefined : 'has a data: URI that is not data:image/...;base64,<base64>.';
  }
  if (src.length > MAX_URL_LENGTH) return `has a src of ${src.length} characters, more than ${MAX_URL_LENGTH}.`;
  if (!URL.canParse(src)) return `has src ${shown(src)}, not a URI.`;
  const protocol = new URL(src).protocol;
  return protocol === 'https:' || protocol === 'http:' ? undefined : `has a ${protocol} src; icons are https:, http: or data:image URIs.`;
}

function iconProblems(icon: unknown): string[] {
  if (!isPlainObject(icon)) return [`is ${shown(icon)}, not { src, mimeType?, sizes?, theme? }.`];
  const found: string[] = [];
  const extra = unknownKeys(icon, ICON_KEYS);
  if (extra.length > 0) found.push(`has unknown key(s) ${extra.map((k) => `'${k.slice(0, 40)}'`).join(', ')}.`);
  const src = srcProblem(icon.src);
  if (src) found.push(src);
  if (icon.mimeType !== undefined && (typeof icon.mimeType !== 'string' || !IMAGE_MIME.test(icon.mimeType)))
    found.push(`has mimeType ${shown(icon.mimeType)}, not an image/... type.`);
  const sizes = icon.sizes;
  if (
    sizes !== undefined &&
    (!Array.isArray(sizes) ||
      sizes.length === 0 ||
      sizes.length > MAX_SIZES ||
      sizes.some((s) => typeof s !== 'string' || !ICON_SIZE.test(s)))
  ) {
    found.push(`has sizes ${shown(sizes)}; give 1 to ${MAX_SIZES} sizes such as '48x48' or 'any'.`);
  }
  if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark')
    found.push(`has theme ${shown(icon.theme)}, not 'light' or 'dark'.`);
  return found;
}

/** The checked `icons` option, or `undefined` (also when it is refused, with its problems recorded). */
export function iconsOf(value: unknown, where: string, problems: Problems): readonly Icon[] | undefined {
  if (value === undefined) return undefined;
  const fix = `give 1 to ${MAX_ICONS} icons such as { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }.`;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ICONS) {
    return problems.add('OMCG0014', where, `icons is ${Array.isArray(value) ? `a list of ${value.length}` : shown(value)}.`, fix);
  }
  const before = problems.count;
  value.forEach((icon: unknown, i) => {
    for (const problem of iconProblems(icon)) problems.add('OMCG0014', where, `icons[${i}] ${problem}`, fix);
  });
  if (problems.count > before) return undefined;
  return Object.freeze(
    (value as Icon[]).map((icon) => {
      const copy: { -readonly [K in keyof Icon]: Icon[K] } = { src: icon.src };
      if (icon.mimeType !== undefined) copy.mimeType = icon.mimeType;
      if (icon.sizes !== undefined) copy.sizes = Object.freeze([...icon.sizes]);
      if (icon.theme !== undefined) copy.theme = icon.theme;
      return Object.freeze(copy);
    }),
  );
}

/** The checked `cache` option, or `undefined`. */
export function cacheOf(value: unknown, where: string, problems: Problems): CacheHint | undefined {
  if (value === undefined) return undefined;
  const fix = `write cache: { ttlMs: 60_000, scope: 'public' } (ttlMs a whole number of milliseconds from 0; scope 'public' or 'private').`;
  if (!isPlainObject(value)) return problems.add('OMCG0014', where, `cache is ${shown(value)}, not { ttlMs, scope? }.`, fix);
  const before = problems.count;
  const extra = unknownKeys(value, CACHE_KEYS);
  if (extra.length > 0)
    problems.add('OMCG0014', where, `cache has unknown key(s) ${extra.map((k) => `'${k.slice(0, 40)}'`).join(', ')}.`, fix);
  if (!Number.isSafeInteger(value.ttlMs) || (value.ttlMs as number) < 0)
    problems.add('OMCG0014', where, `cache.ttlMs is ${shown(value.ttlMs)}.`, fix);
  if (value.scope !== undefined && value.scope !== 'public' && value.scope !== 'private')
    problems.add('OMCG0014', where, `cache.scope is ${shown(value.scope)}.`, fix);
  if (problems.count > before) return undefined;
  return Object.freeze({ ttlMs: value.ttlMs as number, scope: (value.scope as CacheHint['scope'] | undefined) ?? 'private' });
}

/** The checked `size` option of a resource (templates have none), or `undefined`. */
export function sizeOf(value: unknown, template: boolean, where: string, problems: Problems): number | undefined {
  if (value === undefined) return undefined;
  if (template)
    return problems.add(
      'OMCG0014',
      where,
      'size is given for a resource template; a template has no one size.',
      'remove size, or give it on the resources this template reads.',
    );
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    return problems.add('OMCG0014', where, `size is ${shown(value)}.`, 'give the content size in bytes, a whole number from 0.');
  return value as number;
}

function lastModifiedOf(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  return typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

/** The checked `annotations` option of a resource, or `undefined`. */
export function resourceAnnotationsOf(value: unknown, where: string, problems: Problems): ResourceAnnotationsModel | undefined {
  if (value === undefined) return undefined;
  const fix = `write annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-01-31T12:00:00Z' } (each optional).`;
  if (!isPlainObject(value)) return problems.add('OMCG0014', where, `annotations is ${shown(value)}, not an object.`, fix);
  const before = problems.count;
  const extra = unknownKeys(value, ANNOTATION_KEYS);
  if (extra.length > 0)
    problems.add('OMCG0014', where, `annotations has unknown key(s) ${extra.map((k) => `'${k.slice(0, 40)}'`).join(', ')}.`, fix);
  const { audience, priority } = value;
  if (
    audience !== undefined &&
    (!Array.isArray(audience) ||
      audience.length === 0 ||
      new Set(audience).size !== audience.length ||
      audience.some((a) => a !== 'user' && a !== 'assistant'))
  ) {
    problems.add('OMCG0014', where, `annotations.audience is ${shown(audience)}.`, `list 'user', 'assistant' or both, once each.`);
  }
  if (priority !== undefined && (typeof priority !== 'number' || !(priority >= 0 && priority <= 1))) {
    problems.add('OMCG0014', where, `annotations.priority is ${shown(priority)}.`, 'give a number from 0 (optional) to 1 (required).');
  }
  const lastModified = lastModifiedOf(value.lastModified);
  if (value.lastModified !== undefined && lastModified === undefined) {
    problems.add(
      'OMCG0014',
      where,
      `annotations.lastModified is ${shown(value.lastModified)}.`,
      `give a valid Date or an ISO 8601 date-time such as '2026-01-31T12:00:00Z'.`,
    );
  }
  if (problems.count > before) return undefined;
  const model: { -readonly [K in keyof ResourceAnnotationsModel]: ResourceAnnotationsModel[K] } = {};
  if (audience !== undefined) model.audience = Object.freeze([...(audience as ('user' | 'assistant')[])]);
  if (priority !== undefined) model.priority = priority as number;
  if (lastModified !== undefined) model.lastModified = lastModified;
  return Object.freeze(model);
}

/**
 * The completion functions of a prompt's arguments or a template's variables: the `complete` option and
 * `@Complete` on parameters, by argument name. `what` names the arguments in messages ('argument', 'variable').
 */
export function completersOf(
  option: unknown,
  fromParams: ReadonlyMap<number, Completer>,
  params: readonly ParamModel[],
  what: string,
  where: string,
  problems: Problems,
): ReadonlyMap<string, Completer> | undefined {
  const found = new Map<string, Completer>();
  for (const p of params) {
    const completer = fromParams.get(p.index);
    if (completer) found.set(p.name, completer);
  }
  const indexes = new Set(params.map((p) => p.index));
  for (const index of fromParams.keys()) {
    if (!indexes.has(index))
      problems.add(
        'OMCG0014',
        `${where}, parameter ${index + 1}`,
        `@Complete is on a parameter that is not an ${what}.`,
        'move @Complete to the parameter it completes.',
      );
  }
  if (option !== undefined && !isPlainObject(option)) {
    problems.add(
      'OMCG0014',
      where,
      `complete is ${shown(option)}, not an object of functions by ${what} name.`,
      `write complete: { name: (typed) => [...] }.`,
    );
    return undefined;
  }
  const names = new Set(params.map((p) => p.name));
  for (const [name, completer] of Object.entries(option ?? {})) {
    const at = `${where}, complete '${name.slice(0, 64)}'`;
    if (!names.has(name))
      problems.add('OMCG0014', at, `there is no ${what} of that name.`, `complete one of: ${[...names].join(', ') || `(no ${what}s)`}.`);
    else if (typeof completer !== 'function')
      problems.add(
        'OMCG0014',
        at,
        `the completion is ${shown(completer)}, not a function.`,
        'give a function of the typed value that returns the values that fit.',
      );
    else if (found.has(name)) problems.add('OMCG0014', at, 'the parameter also has @Complete.', 'keep one of the two.');
    else found.set(name, completer as Completer);
  }
  return found.size > 0 ? found : undefined;
}
