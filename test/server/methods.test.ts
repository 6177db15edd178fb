import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { RESOURCES_DIRECTORY_READ_METHOD, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from '@modelcontextprotocol/server/ext/skills';
import { HOT_ROWS, HOT_RULES, METHODS, isModernHot, methodsWhere, type MethodRow } from '../../src/server/methods';

/**
 * Issue 38: the method table (src/server/methods.ts) against what it describes. The SDK's own request schemas say
 * which methods exist and which params keys each takes; the hot rules must take no key and no params the SDK's
 * schema refuses, and the handler modules the rows name must exist.
 */

interface ZodLike {
  readonly def: {
    readonly type: string;
    readonly shape?: Record<string, ZodLike>;
    readonly innerType?: ZodLike;
    readonly values?: unknown[];
  };
  readonly '~standard': { validate(value: unknown): { readonly issues?: unknown } | Promise<unknown> };
}

const unwrapped = (schema: ZodLike | undefined): ZodLike | undefined =>
  schema && (schema.def.type === 'optional' || schema.def.type === 'default') ? unwrapped(schema.def.innerType) : schema;

/** The SDK's request schemas, by the method each one's `method` literal names. */
const SDK_REQUESTS: ReadonlyMap<string, ZodLike> = new Map(
  Object.values(specTypeSchemas as unknown as Record<string, ZodLike>).flatMap((schema) => {
    const values = schema?.def?.shape?.method?.def.values;
    return values?.length === 1 && typeof values[0] === 'string' ? [[values[0], schema] as const] : [];
  }),
);

/** The params keys the SDK's schema of the method declares. */
function sdkParamKeys(method: string): string[] {
  const params = unwrapped(SDK_REQUESTS.get(method)?.def.shape?.params);
  return Object.keys(params?.def.shape ?? {}).sort();
}

function sdkAccepts(method: string, params: unknown): boolean {
  const result = SDK_REQUESTS.get(method)!['~standard'].validate(params === undefined ? { method } : { method, params });
  if (result instanceof Promise) throw new TypeError('an async schema');
  return result.issues === undefined;
}

/**
 * The request methods of each era's registry in the SDK (`core-internal/src/wire/rev<revision>/registry.ts`, its
 * `requestMethodKeys`), read from the pinned SDK's bundle: the registry is not exported, and which revision has which
 * method is exactly what a row's `eras` must agree with.
 */
function sdkRegistry(revision: string): ReadonlySet<string> {
  const dist = dirname(require.resolve('@modelcontextprotocol/server'));
  const marker = `//#region ../core-internal/src/wire/rev${revision}/registry.ts`;
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.cjs'))) {
    const text = readFileSync(join(dist, file), 'utf8');
    const at = text.indexOf(marker);
    if (at === -1) continue;
    const keys = /const requestMethodKeys(?:\$\d+)? = \{([^}]*)\}/.exec(text.slice(at))?.[1];
    if (keys !== undefined) return new Set([...keys.matchAll(/^\s*"?([\w/]+)"?: null/gm)].map((m) => m[1]));
  }
  throw new TypeError(`the SDK's ${revision} registry was not found: its bundle changed; read the test again`);
}

/** The methods extensions add to an era (Skills on both; Tasks, `io.modelcontextprotocol/tasks`, on 2026-07-28). */
const EXTENDED: Readonly<Record<'legacy' | 'modern', ReadonlySet<string>>> = {
  legacy: new Set([SKILLS_LIST_METHOD, SKILLS_GET_METHOD, RESOURCES_DIRECTORY_READ_METHOD]),
  modern: new Set([SKILLS_LIST_METHOD, SKILLS_GET_METHOD, RESOURCES_DIRECTORY_READ_METHOD, 'tasks/get', 'tasks/cancel', 'tasks/update']),
};

/** The Skills extension's methods (the SDK's ext/skills) and 2026-07-28's `tasks/update`, which has no spec schema in the SDK. */
const SDK_EXTENSION_METHODS = new Set([SKILLS_LIST_METHOD, SKILLS_GET_METHOD, RESOURCES_DIRECTORY_READ_METHOD, 'tasks/update']);

describe('the method table', () => {
  it('is frozen, row by row, and has one row per method', () => {
    expect(Object.isFrozen(METHODS)).toBe(true);
    expect(Object.isFrozen(HOT_ROWS)).toBe(true);
    expect(Object.isFrozen(HOT_RULES)).toBe(true);
    for (const row of METHODS) {
      expect([row.method, Object.isFrozen(row)]).toEqual([row.method, true]);
      for (const part of [row.hot, row.names, row.telemetry, row.eras])
        if (typeof part === 'object') expect([row.method, Object.isFrozen(part)]).toEqual([row.method, true]);
    }
    expect(new Set(METHODS.map((row) => row.method)).size).toBe(METHODS.length);
  });

  it('names only methods the SDK knows', () => {
    const unknown = METHODS.map((row) => row.method).filter((method) => !SDK_REQUESTS.has(method) && !SDK_EXTENSION_METHODS.has(method));
    expect(unknown).toEqual([]);
  });

  it('gives each method the eras whose SDK registry (or extension) has it', () => {
    const registries = { legacy: sdkRegistry('2025-11-25'), modern: sdkRegistry('2026-07-28') };
    expect(registries.legacy.has('tools/call') && registries.modern.has('tools/call')).toBe(true);
    for (const row of METHODS)
      for (const era of ['legacy', 'modern'] as const)
        expect([row.method, era, row.eras.includes(era)]).toEqual([
          row.method,
          era,
          registries[era].has(row.method) || EXTENDED[era].has(row.method),
        ]);
  });

  it("takes as hot only the params keys the SDK's schema declares: all of them but a task's", () => {
    for (const { method, hot } of HOT_ROWS) {
      // A task-augmented request (`params.task`) is never hot: the SDK answers it.
      expect([method, [...hot.keys].sort()]).toEqual([method, sdkParamKeys(method).filter((key) => key !== 'task')]);
    }
  });

  it("accepts as hot only params the SDK's schema accepts", () => {
    const samples: (object | undefined)[] = [
      undefined,
      {},
      { name: 'x' },
      { name: 1 },
      { uri: 'file:///x' },
      { uri: 2 },
      { cursor: 'c' },
      { cursor: 3 },
      { name: 'x', arguments: {} },
      { name: 'x', arguments: { a: 1 } },
      { name: 'x', arguments: { a: 'b' } },
      // A prompt's arguments are strings, every one of them.
      { name: 'x', arguments: { a: 'b', c: 1 } },
      { name: 'x', arguments: [] },
      { name: 'x', arguments: null },
      { _meta: {} },
    ];
    for (const { method, hot } of HOT_ROWS)
      for (const params of samples) {
        const onlyKeys = params === undefined || Object.keys(params).every((key) => hot.keys.has(key));
        if (onlyKeys && hot.accepted(params as never)) expect([method, params, sdkAccepts(method, params)]).toEqual([method, params, true]);
      }
  });

  it('pages exactly the methods whose SDK schema takes a cursor; names entries by fields the schema declares', () => {
    const known = METHODS.filter((row) => SDK_REQUESTS.has(row.method));
    expect(known.filter((row) => row.paged).map((row) => row.method)).toEqual(
      known.filter((row) => sdkParamKeys(row.method).includes('cursor')).map((row) => row.method),
    );
    for (const row of known.filter((r): r is MethodRow & { names: { field: string } } => typeof r.names === 'object'))
      expect([row.method, sdkParamKeys(row.method)]).toEqual([row.method, expect.arrayContaining([row.names.field])]);
  });

  it('names handler modules that exist', () => {
    const missing = METHODS.filter((row) => row.handler !== 'sdk' && !existsSync(join(__dirname, '../../src/server', `${row.handler}.ts`)));
    expect(missing).toEqual([]);
  });

  it('gives the readers the sets they had', () => {
    expect([...methodsWhere(isModernHot)].sort()).toEqual([
      'prompts/get',
      'prompts/list',
      'resources/list',
      'resources/read',
      'resources/templates/list',
      'tools/call',
      'tools/list',
    ]);
    expect([...methodsWhere((row) => row.stdio === true)].sort()).toEqual([
      'initialize',
      'ping',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'tools/call',
      'tools/list',
    ]);
    expect([...methodsWhere((row) => row.paramHeaders === true)]).toEqual(['tools/call']);
  });
});
