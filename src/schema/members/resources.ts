import { descriptionOf, type MemberRecordOf } from '../../decorators/metadata';
import { cacheOf, iconsOf, resourceAnnotationsOf, sizeOf, type ResourceAnnotationsModel } from './listing-metadata';
import { methodFactsOf } from '../../facts/registry';
import type { Problems } from '../diagnostics';
import type { TextMethodExtras, TextMethodModel } from '../model';
import { toolNameOf } from './names';
import { completersFor, resolveTextParams } from './text-methods';
import { checkShape, declarerOf, memberWhere } from './tools';

/**
 * Resources and resource templates (docs/serving.md): a URI without variables is a static resource,
 * one with `{variables}` a template whose variables are the method's parameters of the same name.
 */

/** One piece of a URI template: literal text, or a variable (`{name}` one segment, `{+name}` any text). */
export type TemplatePart =
  { readonly kind: 'literal'; readonly text: string } | { readonly kind: 'variable'; readonly name: string; readonly reserved: boolean };

export interface ResourceModel extends TextMethodModel, TextMethodExtras {
  readonly mimeType?: string;
  /** Content size in bytes (static resources). */
  readonly size?: number;
  readonly annotations?: ResourceAnnotationsModel;
  /** The URI, or the URI template as written. */
  readonly uri: string;
  readonly parts: readonly TemplatePart[];
  /** Whether the URI has variables (listed by `resources/templates/list`). */
  readonly template: boolean;
}

const VARIABLE = /\{([+]?)([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Splits a URI template into literal text and variables; `undefined` for operators this reader does not match. */
export function templatePartsOf(uri: string): readonly TemplatePart[] | undefined {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (const m of uri.matchAll(VARIABLE)) {
    const literal = uri.slice(at, m.index);
    if (/[{}]/.test(literal)) return undefined;
    if (literal) parts.push({ kind: 'literal', text: literal });
    const previous = parts[parts.length - 1];
    if (previous?.kind === 'variable') return undefined;
    parts.push({ kind: 'variable', name: m[2], reserved: m[1] === '+' });
    at = m.index + m[0].length;
  }
  const rest = uri.slice(at);
  if (/[{}]/.test(rest)) return undefined;
  if (rest) parts.push({ kind: 'literal', text: rest });
  return parts;
}

/** The entries of `values` that are not `undefined` (so a model holds no key it does not use). */
export function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Records a problem for each URI variable without its parameter, each repeated variable and each parameter that is no variable. */
function checkUriVariables(
  uriTemplate: string,
  parts: readonly TemplatePart[],
  params: readonly { readonly name: string }[],
  where: string,
  problems: Problems,
): void {
  const variables = parts.flatMap((p) => (p.kind === 'variable' ? [p.name] : []));
  const names = new Set(params.map((p) => p.name));
  for (const v of variables) {
    if (!names.has(v))
      problems.add(
        'OMCG0008',
        where,
        `the URI variable '${v}' has no parameter of that name.`,
        `add a parameter named '${v}' or rename it with @Param('${v}').`,
      );
  }
  if (new Set(variables).size !== variables.length)
    problems.add('OMCG0007', where, 'a URI variable appears twice.', 'give each variable its own name.');
  for (const p of params) {
    if (!variables.includes(p.name))
      problems.add(
        'OMCG0008',
        `${where}, parameter '${p.name}'`,
        `the parameter is not a variable of '${uriTemplate}'.`,
        `add {${p.name}} to the URI template or remove the parameter.`,
      );
  }
}

/** Builds the model of one `@Resource` method, or `undefined` with its problems recorded. */
export function resourceFromMethod(ctor: Function, record: MemberRecordOf<'resource'>, problems: Problems): ResourceModel | undefined {
  if (!checkShape(ctor, record, problems)) return undefined;
  const options = record.options;
  const declarer = declarerOf(ctor, record);
  const where = memberWhere(ctor, record);
  const before = problems.count;
  const parts = templatePartsOf(options.uriTemplate);
  if (!parts) {
    problems.add(
      'OMCG0008',
      where,
      `the URI template '${options.uriTemplate}' is not supported: variables are {name} (one path segment) or {+name} (any text), separated by literal text.`,
      `write the URI as 'scheme://path/{variable}'.`,
    );
  }
  const found = resolveTextParams(ctor, record, 'Resource', problems);
  if (parts && found) checkUriVariables(options.uriTemplate, parts, found.params, where, problems);
  const template = parts?.some((p) => p.kind === 'variable') ?? false;
  const extras = {
    icons: iconsOf(options.icons, where, problems),
    size: sizeOf(options.size, template, where, problems),
    annotations: resourceAnnotationsOf(options.annotations, where, problems),
    cache: cacheOf(options.cache, where, problems),
    completers: found && completersFor(ctor, record, options.complete, found.params, 'variable', where, problems),
  };
  if (!parts || !found || problems.count > before) return undefined;
  return {
    name: options.name ?? toolNameOf(String(record.key)),
    title: options.title,
    description: options.description ?? descriptionOf(declarer.prototype, record.key) ?? methodFactsOf(declarer, record.key)?.description,
    mimeType: options.mimeType,
    uri: options.uriTemplate,
    parts,
    template,
    ...found,
    ...definedOnly(extras),
    where,
  };
}
