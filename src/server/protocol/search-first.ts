import { Int32, JsonObject } from '../../decorators/hints';
import { isPlainObject } from '../../objects';
import { Problems } from '../../schema/diagnostics';
import { toolFromConfig } from '../../schema/members/quick';
import { siteOf } from '../../schema/members/tools';
import { resolveSlot } from '../../schema/resolve/slots';
import type { ToolModel } from '../../schema/model';
import { EXACT, inputSchemaFor, type Profile } from '../../schema/profiles';
import { listingOf, type ToolListing } from '../catalog/listing';
import { CALL_TOOL, DESCRIBE_TOOL, SEARCH_FIRST_NAMES, SEARCH_TOOLS, SearchIndex } from '../catalog/search';

export { SEARCH_FIRST_NAMES };

/**
 * The search-first catalog (`new McpServer(info, { catalog: 'search' })`): `tools/list` answers three tools that
 * find, describe and call the others, so that a server with hundreds of tools does not fill a model's context.
 * Every other tool stays callable by `tools/call` under its own name. What a caller may see is what its
 * `tools/list` would have held (scopes, `public`, `auth.authorize`, MCP Apps, the listing profile): `visible`
 * gives that very listing, and nothing here decides visibility.
 */

/** Longest `query` read, in characters. */
export const MAX_QUERY_LENGTH = 1000;
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;

/** `search_tools`' `limit`: an int32 from 1 to {@link MAX_LIMIT}, as `@Range(1, 20)` states it (the quick path has no range). */
function withLimitRange(model: ToolModel): ToolModel {
  const problems = new Problems();
  const site = siteOf(`tool '${SEARCH_TOOLS}', parameter 'limit'`, problems, 'input');
  const type = resolveSlot(
    { hint: Int32, design: undefined, constraints: [{ kind: 'range', min: 1, max: MAX_LIMIT, decorator: '@Range' }] },
    site,
  );
  problems.throwIfAny(SEARCH_TOOLS);
  return { ...model, params: model.params.map((p) => (p.name === 'limit' && type ? { ...p, type } : p)) };
}

/** The three tools' models, made on first use (a stdio server that never lists them never makes them). */
const modelsOf = (): readonly ToolModel[] => [
  withLimitRange(
    toolFromConfig(SEARCH_TOOLS, {
      title: 'Search tools',
      description:
        'Finds the tools of this server that fit a task, best first: each one with its name, title, description and one ' +
        `line per parameter. Then call it with ${CALL_TOOL}, or read its full input schema with ${DESCRIBE_TOOL} first.`,
      params: {
        query: { type: String, description: 'What you want to do, in a few words: the words of a tool’s name and description match best.' },
        limit: { type: Int32, optional: true, description: `How many tools to return, from 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.` },
      },
      readOnly: true,
    }),
  ),
  toolFromConfig(DESCRIBE_TOOL, {
    title: 'Describe a tool',
    description: 'The full listing of one tool (its input schema, output schema and annotations), as tools/list would send it.',
    params: { name: { type: String, description: `The tool’s name, as ${SEARCH_TOOLS} returned it.` } },
    readOnly: true,
  }),
  toolFromConfig(CALL_TOOL, {
    title: 'Call a tool',
    description: `Calls one tool by name with its arguments and answers what that tool answers.`,
    params: {
      name: { type: String, description: `The tool’s name, as ${SEARCH_TOOLS} returned it.` },
      arguments: { type: JsonObject, optional: true, description: 'The tool’s arguments, as its input schema describes them.' },
    },
  }),
];

let models: readonly ToolModel[] | undefined;
const profiled = new Map<string, readonly ToolListing[]>();

/** The three tools as a client of `profile` is sent them. */
export function searchFirstListings(profile: Profile): readonly ToolListing[] {
  let shown = profiled.get(profile.key);
  if (!shown) {
    models ??= modelsOf();
    shown = Object.freeze(
      models.map((m) => {
        const exact = listingOf(m, false);
        return Object.freeze(profile === EXACT ? exact : { ...exact, inputSchema: inputSchemaFor(m, profile) });
      }),
    );
    profiled.set(profile.key, shown);
  }
  return shown;
}

/** A `tools/call`'s params (`_meta`, `task` and the rest as the request sent them). */
export interface CallParams {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** What the three tools need of the request's server. */
export interface SearchFirstHost<C> {
  /** The whole listing this caller's `tools/list` would hold (no page), under its profile. */
  visible(ctx: C): Promise<readonly ToolListing[]>;
  /** The catalog's listings, as indexed (the array changes with the catalog). */
  indexed(): readonly ToolListing[];
  /** A `tools/call` of a real tool with these params, answered exactly as such a request is. */
  call(params: CallParams, ctx: C): Promise<unknown>;
}

/** A tool result a model reads: one text block, `isError` for a refusal. */
function textResult(text: string, isError = false) {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}

const byName = new WeakMap<readonly ToolListing[], ReadonlyMap<string, ToolListing>>();

function namesOf(tools: readonly ToolListing[]): ReadonlyMap<string, ToolListing> {
  let names = byName.get(tools);
  if (!names) byName.set(tools, (names = new Map(tools.map((t) => [t.name, t]))));
  return names;
}

/** One line per parameter: `name: type, required. Description` (from the listing's `inputSchema` as sent). */
export function parameterLines(tool: ToolListing): string[] {
  const schema = tool.inputSchema as { properties?: Record<string, Record<string, unknown>>; required?: readonly string[] };
  if (!isPlainObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const type = Array.isArray(property?.type) ? property.type.join(' | ') : typeof property?.type === 'string' ? property.type : 'any';
    const description = typeof property?.description === 'string' ? ` ${property.description}` : '';
    return `${name}: ${type}, ${required.has(name) ? 'required' : 'optional'}.${description}`;
  });
}

function matchOf(tool: ToolListing) {
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.description !== undefined && { description: tool.description }),
    parameters: parameterLines(tool),
  };
}

const quoted = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 128)) : typeof value);
const isAbsent = (value: unknown) => value === undefined || value === null;

function search<C>(args: Readonly<Record<string, unknown>>, host: SearchFirstHost<C>, ctx: C): Promise<unknown> | object {
  const { query, limit } = args;
  if (typeof query !== 'string' || query.trim() === '' || query.length > MAX_QUERY_LENGTH)
    return textResult(
      `${SEARCH_TOOLS}: query must be a non-empty string of at most ${MAX_QUERY_LENGTH} characters; got ${typeof query === 'string' ? `${query.length} characters` : quoted(query)}.`,
      true,
    );
  // `null` is absent, as an 'openai-strict' client sends an optional argument it leaves out.
  if (!isAbsent(limit) && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_LIMIT))
    return textResult(`${SEARCH_TOOLS}: limit must be an integer from 1 to ${MAX_LIMIT}; got ${JSON.stringify(limit)}.`, true);
  return host.visible(ctx).then((tools) => {
    const shown = namesOf(tools);
    const names = SearchIndex.of(host.indexed()).search(query, (limit as number | undefined) ?? DEFAULT_LIMIT, (name) => shown.has(name));
    return textResult(JSON.stringify({ tools: names.map((name) => matchOf(shown.get(name)!)) }));
  });
}

const unknownName = (tool: string, name: unknown) =>
  textResult(`${tool}: no tool is named ${quoted(name)}; ${SEARCH_TOOLS} finds the tools there are.`, true);

function describe<C>(args: Readonly<Record<string, unknown>>, host: SearchFirstHost<C>, ctx: C): Promise<unknown> {
  return host.visible(ctx).then((tools) => {
    const tool = typeof args.name === 'string' ? namesOf(tools).get(args.name) : undefined;
    return tool ? textResult(JSON.stringify(tool)) : unknownName(DESCRIBE_TOOL, args.name);
  });
}

async function call<C>(request: CallParams, args: Readonly<Record<string, unknown>>, host: SearchFirstHost<C>, ctx: C): Promise<unknown> {
  const { name } = args;
  const given = args.arguments;
  if (!isAbsent(given) && !isPlainObject(given))
    return textResult(
      `${CALL_TOOL}: arguments must be an object of the tool’s arguments; got ${Array.isArray(given) ? 'an array' : quoted(given)}.`,
      true,
    );
  if (typeof name !== 'string' || !namesOf(await host.visible(ctx)).has(name)) return unknownName(CALL_TOOL, name);
  // The request as sent (its `_meta`, its `task`), the named tool and its arguments in place of the wrapper's.
  const { arguments: _wrapped, ...rest } = request;
  return host.call(isAbsent(given) ? { ...rest, name } : { ...rest, name, arguments: given as Readonly<Record<string, unknown>> }, ctx);
}

/** Answers a `tools/call` of one of the three tools (`name` in {@link SEARCH_FIRST_NAMES}). */
export function searchFirstCall<C>(request: CallParams, host: SearchFirstHost<C>, ctx: C): Promise<unknown> {
  try {
    const { name } = request;
    const read: Readonly<Record<string, unknown>> = isPlainObject(request.arguments) ? request.arguments : {};
    if (name === SEARCH_TOOLS) return Promise.resolve(search(read, host, ctx));
    if (name === DESCRIBE_TOOL) return describe(read, host, ctx);
    return call(request, read, host, ctx);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
