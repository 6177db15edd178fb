import type { Log } from '../../log';
import { classScopesOf, type MemberRecord } from '../../decorators/metadata';
import type { Problems } from '../../schema/diagnostics';
import type { ParamModel, ToolModel } from '../../schema/model';
import { promptFromMethod, type PromptModel } from '../../schema/members/prompts';
import { resourceFromMethod, type ResourceModel } from '../../schema/members/resources';
import { skillFromMethod } from '../../schema/members/skills';
import { decoratedMembersOf, toolFromMethod } from '../../schema/members/tools';
import type { Interceptors } from '../../invoke/calling/interceptors';
import { compileTool, type CompileOptions, type ToolTarget } from '../../invoke/calling/invoker';
import { policyOf } from '../../schema/records/validation-options';
import { compileTextMethod } from '../../invoke/calling/text-methods';
import type { AddOptions, InvokeHook } from '../../invoke/calling/invocation';
import { lazily, type Access, type RegisteredPrompt, type RegisteredResource, type RegisteredTool } from './entries';
import { appOnly, listingOf } from './listing';
import { promptListingOf, resourceListingOf, uriMatcherOf } from './resource-listing';
import type { DecoratedSkill } from './skills';

/**
 * From declarations to entries: the members a class declares, read into entries waiting to be checked, and an
 * entry, once checked, built with its listings and its call.
 */

/** A declared tool, resource or prompt, read but not yet checked against the catalog nor stored. */
export type Pending = Access &
  (
    | { readonly kind: 'tool'; readonly model: ToolModel; readonly target: ToolTarget }
    | {
        readonly kind: 'resource';
        readonly model: ResourceModel;
        readonly instance: object;
        readonly key: string | symbol;
        readonly invoke?: InvokeHook;
      }
    | {
        readonly kind: 'prompt';
        readonly model: PromptModel;
        readonly instance: object;
        readonly key: string | symbol;
        readonly invoke?: InvokeHook;
      }
  );

/** What a resource's or prompt's call is compiled with: the server's log and `server.use`'s interceptors. */
export interface TextCompiling {
  readonly log: Log;
  readonly interceptors: Interceptors;
}

/** A member's own `scopes` option, else its class's `@Scopes`, else none; none and public when it is `public`. */
function accessOf(ctor: Function, record: MemberRecord): Access {
  if (record.options.public === true) return { scopes: [], public: true };
  return { scopes: record.options.scopes ?? classScopesOf(ctor) ?? [], public: false };
}

/**
 * The `@Tool`, `@Resource` and `@Prompt` members of an instance, as pending entries, and its `@Skill` methods; each
 * problem of a member goes to `problems` (that member is left out).
 */
export function declarationsOf(
  instance: object,
  options: AddOptions,
  problems: Problems,
): { readonly pending: readonly Pending[]; readonly skills: readonly DecoratedSkill[] } {
  const ctor = instance.constructor;
  const { invoke } = options;
  const pending: Pending[] = [];
  const skills: DecoratedSkill[] = [];
  for (const record of decoratedMembersOf(ctor)) {
    const access = accessOf(ctor, record);
    if (record.kind === 'skill') {
      const model = skillFromMethod(ctor, record, problems);
      if (model) skills.push({ model, instance, access });
    } else if (record.kind === 'tool') {
      const model = toolFromMethod(ctor, record, problems);
      if (model) pending.push({ kind: 'tool', model, target: { kind: 'method', instance, key: record.key, invoke }, ...access });
    } else if (record.kind === 'resource') {
      const model = resourceFromMethod(ctor, record, problems);
      if (model) pending.push({ kind: 'resource', model, instance, key: record.key, invoke, ...access });
    } else {
      const model = promptFromMethod(ctor, record, problems);
      if (model) pending.push({ kind: 'prompt', model, instance, key: record.key, invoke, ...access });
    }
  }
  return { pending, skills };
}

const NO_PARAMS: readonly ParamModel[] = Object.freeze([]);

/** A tool's parameters that declare an `x-mcp-header`, found once so that a call without any costs a lookup. */
function headerParamsOf(model: ToolModel): readonly ParamModel[] {
  return model.params.some((p) => p.header !== undefined) ? Object.freeze(model.params.filter((p) => p.header !== undefined)) : NO_PARAMS;
}

/** A checked tool's entry: its listings now, its call compiled on the first call with the options in force now. */
export function toolEntryOf(entry: Extract<Pending, { kind: 'tool' }>, compiling: CompileOptions): RegisteredTool {
  const { model, target } = entry;
  const policy = policyOf(compiling.validation);
  const listing = Object.freeze(listingOf(model, true, policy));
  return {
    model,
    listing,
    plainListing: !model.ui ? listing : appOnly(model) ? undefined : Object.freeze(listingOf(model, false, policy)),
    call: lazily(() => compileTool(model, target, compiling)),
    member: target.kind === 'method' ? { instance: target.instance, key: target.key } : undefined,
    headerParams: headerParamsOf(model),
    scopes: entry.scopes,
    public: entry.public,
  };
}

/** A checked resource's or template's entry, its call compiled now. */
export function resourceEntryOf(entry: Extract<Pending, { kind: 'resource' }>, compiling: TextCompiling): RegisteredResource {
  return {
    model: entry.model,
    instance: entry.instance,
    key: entry.key,
    listing: Object.freeze(resourceListingOf(entry.model)),
    match: uriMatcherOf(entry.model.parts),
    call: compileTextMethod(entry.model, entry.instance, entry.key, 'resource', {
      invoke: entry.invoke,
      log: compiling.log,
      interceptors: compiling.interceptors,
    }),
    scopes: entry.scopes,
    public: entry.public,
  };
}

/** A checked prompt's entry, its call compiled now. */
export function promptEntryOf(entry: Extract<Pending, { kind: 'prompt' }>, compiling: TextCompiling): RegisteredPrompt {
  return {
    model: entry.model,
    instance: entry.instance,
    key: entry.key,
    listing: Object.freeze(promptListingOf(entry.model)),
    call: compileTextMethod(entry.model, entry.instance, entry.key, 'prompt', {
      invoke: entry.invoke,
      log: compiling.log,
      interceptors: compiling.interceptors,
    }),
    scopes: entry.scopes,
    public: entry.public,
  };
}
