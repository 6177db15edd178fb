import type { Problems } from '../../schema/diagnostics';
import type { ToolModel } from '../../schema/model';
import { profileProblemsOf } from '../../schema/profiles';
import type { Pending } from './declarations';
import type { Registry } from './registry';
import type { DecoratedSkill } from './skills';

/**
 * What refuses a declaration before anything is stored: a name or URI already taken, a tool name the server keeps,
 * a view not registered yet, a tool a listing profile in force cannot list. Each adds problems to the one
 * `DefinitionError` the caller throws.
 */

/**
 * Adds a problem for every name or URI already taken, by the catalog or by another entry of `pending`, for every
 * tool name in `reserved`, and for every tool whose view is not registered.
 */
export function checkClashes(registry: Registry, reserved: ReadonlySet<string>, pending: readonly Pending[], problems: Problems): void {
  // Names of the valid members are compared too, so that one error reports every problem of the class.
  // `server.tool()` registers one entry at a time: it can only clash with what is already registered.
  const names = pending.length > 1 ? { tool: new Set<string>(), resource: new Set<string>(), prompt: new Set<string>() } : undefined;
  for (let i = 0; i < pending.length; i++) {
    const entry = pending[i];
    const key = entry.kind === 'resource' ? entry.model.uri : entry.model.name;
    const existing = registry.entry(entry.kind, key);
    if (existing || names?.[entry.kind].has(key)) {
      problems.add(
        'OMCG0007',
        entry.model.where,
        `the ${entry.kind} ${entry.kind === 'resource' ? 'URI' : 'name'} '${key}' is already used${existing ? ` by ${'model' in existing ? existing.model.where : 'a UI resource'}` : ''}.`,
        entry.kind === 'resource'
          ? 'give one of them another URI.'
          : `give one of them another name with @${entry.kind === 'tool' ? 'Tool' : 'Prompt'}('name').`,
      );
    }
    if (entry.kind === 'tool' && reserved.has(key)) {
      problems.add(
        'OMCG0007',
        entry.model.where,
        `the tool name '${key}' is one of the three tools of catalog: 'search' (${[...reserved].join(', ')}).`,
        "give the tool another name with @Tool('name').",
      );
    }
    names?.[entry.kind].add(key);
    if (entry.kind === 'tool') checkView(registry, entry.model, problems);
  }
}

/**
 * A tool's view must be registered before the tool: a host that follows the tool's `_meta.ui.resourceUri` and
 * reads nothing would show an empty frame, which the developer would only see in a host.
 */
function checkView(registry: Registry, model: ToolModel, problems: Problems): void {
  const uri = model.ui?.resourceUri;
  if (uri === undefined || !uri.startsWith('ui://') || registry.uiResources.has(uri)) return;
  problems.add(
    'OMCG0015',
    model.where,
    `uiResource '${uri.slice(0, 128)}' names no registered view.`,
    `register it first: server.addUiResource('${uri.slice(0, 128)}', { html }) before adding the class.`,
  );
}

/** Adds a problem for every tool of `pending` that one of `profiles` cannot list (OMCG0018). */
export function checkProfiles(profiles: ReadonlySet<'gemini' | 'openai-strict'>, pending: readonly Pending[], problems: Problems): void {
  for (const entry of pending) {
    if (entry.kind !== 'tool') continue;
    for (const profile of profiles) addProfileProblems(entry.model, profile, problems);
  }
}

/** Adds a problem for everything of the tool that `profile` cannot list. */
export function addProfileProblems(model: ToolModel, profile: 'gemini' | 'openai-strict', problems: Problems): void {
  for (const d of profileProblemsOf(model, profile)) problems.add(d.code, d.where, d.message, d.fix);
}

/**
 * Adds a problem for every `@Skill` name another `@Skill` method already takes, among those `added` before or
 * those of `skills` (the folder's are checked on loading).
 */
export function checkSkillClashes(added: readonly DecoratedSkill[], skills: readonly DecoratedSkill[], problems: Problems): void {
  const taken = new Map(added.map((d) => [d.model.name, d.model.where] as const));
  for (const { model } of skills) {
    const other = taken.get(model.name);
    if (other !== undefined)
      problems.add(
        'OMCG0007',
        model.where,
        `the skill name '${model.name}' is already used by ${other}.`,
        'give one of them another name with @Skill({ name }).',
      );
    taken.set(model.name, model.where);
  }
}
