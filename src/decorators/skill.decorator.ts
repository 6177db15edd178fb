import type { SkillOptions } from './member-options';
import { checkPublic, checkScopes, checkString, memberDecorator, refuseBareUse, type MemberDecorator } from './member';

/**
 * Makes an instance method a skill served through the Skills extension (`skills/list`, `skills/get`, its files
 * at `skill://<name>/...`). The method returns the body of the skill's `SKILL.md` (markdown; the frontmatter is
 * written from the options), or its files by path with `SKILL.md` among them, or a promise of either. It runs once,
 * when the instance is added; what it returned is served until the server stops.
 * @example
 * @Skill({ description: 'How we branch, commit and open pull requests.' })
 * gitWorkflow(): string { return readFileSync(join(__dirname, 'git-workflow.md'), 'utf8'); }
 */
export function Skill(options?: SkillOptions): MemberDecorator {
  refuseBareUse('Skill', options, arguments[1]);
  for (const key of ['name', 'description'] as const) checkString('Skill', key, options?.[key]);
  return memberDecorator({
    kind: 'skill',
    options: { ...options, scopes: checkPublic('@Skill()', options?.public, checkScopes('@Skill()', options?.scopes)) },
  });
}
