import { descriptionOf, type MemberRecordOf } from '../../decorators/metadata';
import { methodFactsOf } from '../../facts/registry';
import type { Problems } from '../diagnostics';
import { cacheOf, iconsOf } from './listing-metadata';
import type { TextMethodExtras, TextMethodModel } from '../model';
import { isValidName, toolNameOf } from './names';
import { definedOnly } from './resources';
import { completersFor, resolveTextParams } from './text-methods';
import { checkShape, declarerOf, memberWhere } from './tools';

/** A prompt (docs/serving.md): its arguments are the method's text-like parameters. */
export type PromptModel = TextMethodModel & TextMethodExtras;

/** Builds the model of one `@Prompt` method, or `undefined` with its problems recorded. */
export function promptFromMethod(ctor: Function, record: MemberRecordOf<'prompt'>, problems: Problems): PromptModel | undefined {
  if (!checkShape(ctor, record, problems)) return undefined;
  const options = record.options;
  const declarer = declarerOf(ctor, record);
  const where = memberWhere(ctor, record);
  const before = problems.count;
  const name = options.name ?? toolNameOf(String(record.key));
  if (!isValidName(name)) {
    problems.add(
      'OMCG0008',
      where,
      `the prompt name '${name}' is not valid: use 1 to 128 ASCII letters, digits, '_', '-' or '.'.`,
      `give a valid name with @Prompt('name').`,
    );
  }
  const found = resolveTextParams(ctor, record, 'Prompt', problems);
  const extras = {
    icons: iconsOf(options.icons, where, problems),
    cache: cacheOf(options.cache, where, problems),
    completers: found && completersFor(ctor, record, options.complete, found.params, 'argument', where, problems),
  };
  if (!found || problems.count > before) return undefined;
  return {
    ...definedOnly(extras),
    name,
    title: options.title,
    description: options.description ?? descriptionOf(declarer.prototype, record.key) ?? methodFactsOf(declarer, record.key)?.description,
    ...found,
    where,
  };
}
