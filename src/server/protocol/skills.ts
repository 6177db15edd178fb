import { ProtocolError, ProtocolErrorCode, type ReadResourceResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { ResourceNotFoundError } from '../../invoke/calling/text-methods';
import type { Visibility } from '../auth/visibility';
import { SKILLS_METHODS, type ServedSkills } from '../catalog/skills';
import { attachSkills, canonicalUri, type SkillsGuard } from '../sdk/skills';

/**
 * The Skills extension (SEP-2640) on one of our servers: the SDK's own handlers of `skills/list`, `skills/get` and
 * `resources/directory/read` (sdk/skills.ts attaches them), each behind the caller's view of the skills. A skill the
 * caller may not use (the scopes of `addSkills`, `auth.authorize` about `{ kind: 'skill' }`) is absent from
 * `skills/list` and answered as an unknown one everywhere else, as a refused resource is.
 */

/** Reads one skill file for `resources/read`; an unpublished URI or a refused skill is an unknown resource. */
export type SkillRead = (uri: string, ctx: ServerContext) => Promise<ReadResourceResult>;

type Allowed = (uri: string, ctx: ServerContext) => Promise<boolean>;

/** Registers the skills methods on `server` and answers the reader of skill files. */
export function installSkills(server: Server, skills: ServedSkills, visibility: Visibility): SkillRead {
  const allowed: Allowed = async (uri, ctx) => visibility.allowsSkill(ctx.http?.authInfo, skills, uri, ctx.mcpReq.id, ctx.sessionId);
  const read = attachSkills(skills.loaded.extension, server, guardOf(skills, allowed));
  return async (uri, ctx) => {
    const owner = skills.fileOwner(uri);
    if (owner === undefined || !(await allowed(owner.uri, ctx))) throw new ResourceNotFoundError(uri);
    // The URI as the catalog published it: the SDK's read looks it up canonically, as fileOwner did.
    return read(canonicalUri(uri) ?? uri, ctx);
  };
}

function guardOf(skills: ServedSkills, allowed: Allowed): SkillsGuard {
  return (method, handler) => {
    if (method === SKILLS_METHODS.list)
      return async (params, ctx) => {
        const page = (await handler(params, ctx)) as { skills: readonly { uri: string }[] };
        const answers = await Promise.all(page.skills.map((skill) => allowed(skill.uri, ctx)));
        return { ...page, skills: page.skills.filter((_, i) => answers[i]) };
      };
    if (method === SKILLS_METHODS.get)
      return async (params, ctx) => {
        const uri = String(params.uri);
        const skill = skills.skillAt(uri);
        if (skill !== undefined && !(await allowed(skill.uri, ctx)))
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${uri}`);
        return handler(params, ctx);
      };
    if (method === SKILLS_METHODS.directoryRead)
      return async (params, ctx) => {
        const uri = String(params.uri);
        const owner = skills.ownerOf(uri);
        if (owner !== undefined && !(await allowed(owner.uri, ctx)))
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} is not a directory resource`);
        return handler(params, ctx);
      };
    return handler;
  };
}
