import { descriptionOf, type MemberRecordOf } from '../../decorators/metadata';
import { methodFactsOf } from '../../facts/registry';
import type { Problems } from '../diagnostics';
import { toolNameOf } from './names';
import { checkShape, declarerOf, memberWhere } from './tools';

/** A skill declared with `@Skill` (docs/protocol.md, Skills): its frontmatter, and the method that gives its files. */
export interface SkillModel {
  readonly name: string;
  readonly description: string;
  readonly key: string | symbol;
  readonly where: string;
}

/** The Agent Skills rule for a skill's name: lowercase letters, digits and single hyphens, at most 64 characters. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The longest description the Agent Skills format allows. */
const MAX_DESCRIPTION = 1024;

/** Builds the model of one `@Skill` method, or `undefined` with its problems recorded (OMCG0001, OMCG0008, OMCG0017). */
export function skillFromMethod(ctor: Function, record: MemberRecordOf<'skill'>, problems: Problems): SkillModel | undefined {
  if (!checkShape(ctor, record, problems)) return undefined;
  const declarer = declarerOf(ctor, record);
  const where = memberWhere(ctor, record);
  const before = problems.count;
  const name = record.options.name ?? toolNameOf(String(record.key)).replace(/_/g, '-');
  if (name.length > 64 || !SKILL_NAME.test(name)) {
    problems.add(
      'OMCG0008',
      where,
      `the skill name '${name.slice(0, 128)}' is not valid: use 1 to 64 lowercase letters, digits and single hyphens, such as 'git-workflow'.`,
      `give a valid name with @Skill({ name }).`,
    );
  }
  const description =
    record.options.description ?? descriptionOf(declarer.prototype, record.key) ?? methodFactsOf(declarer, record.key)?.description;
  if (description === undefined || description.trim() === '' || description.length > MAX_DESCRIPTION) {
    problems.add(
      'OMCG0017',
      where,
      description === undefined || description.trim() === ''
        ? 'the skill has no description; hosts choose a skill by it.'
        : `the skill's description has ${description.length} characters; the Skills format allows ${MAX_DESCRIPTION}.`,
      `say what the skill is for and when to use it with @Skill({ description }) or @Description, in at most ${MAX_DESCRIPTION} characters.`,
    );
  }
  if (problems.count > before) return undefined;
  return Object.freeze({ name, description: description as string, key: record.key, where });
}
