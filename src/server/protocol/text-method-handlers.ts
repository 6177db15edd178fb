import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { promptResult, resourceResult } from '../../invoke/calling/contents';
import { ResourceNotFoundError } from '../../invoke/calling/text-methods';
import type { AuthorizeItem } from '../auth/caller';
import { resourceItemOf, type Visibility } from '../auth/visibility';
import type { Catalog } from '../catalog/catalog';
import { subscribedUri } from '../catalog/live';
import { uiReadResult } from '../catalog/ui-resource';
import { handleRequest } from '../sdk/server';
import type { CatalogServer } from './catalog-server';
import { callerOf, contextInitOf } from './handler-context';
import { listed, withCacheFields } from './list-pages';
import { LIST_SHAPES } from './rules';
import { answer, requireAllowed } from './outcomes';
import type { SkillRead } from './skills';
import type { ProtocolSettings } from './settings';
import { isObjectLike } from '../../objects';

/** The handlers of the text methods (resources and prompts) and of completions of their arguments. */

function stringArguments(args: unknown): Readonly<Record<string, unknown>> | undefined {
  return isObjectLike(args) ? (args as Record<string, unknown>) : undefined;
}

/** `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
export function installResourceHandlers(
  server: CatalogServer,
  catalog: Catalog,
  settings: ProtocolSettings,
  visibility: Visibility,
  skillRead?: SkillRead,
): void {
  server.handleHot('resources/list', async (req, ctx) =>
    listed(
      server,
      ctx,
      catalog,
      settings,
      LIST_SHAPES['resources/list'],
      await visibility.list(ctx.http?.authInfo, 'resources'),
      req.params,
    ),
  );
  server.handleHot('resources/templates/list', async (req, ctx) =>
    listed(
      server,
      ctx,
      catalog,
      settings,
      LIST_SHAPES['resources/templates/list'],
      await visibility.list(ctx.http?.authInfo, 'templates'),
      req.params,
    ),
  );
  server.handleHot('resources/read', (req, ctx) => {
    const uri = req.params.uri;
    return answer(settings, ctx, uri, async () => {
      const found = catalog.findResource(uri);
      const modern = callerOf(server, ctx).modern;
      // A skill file (addSkills) is read by the SDK's skills extension, behind the skill's own checks (skills.ts).
      if (!found && skillRead) return withCacheFields(await skillRead(uri, ctx), settings.cache, modern);
      if (!found) throw new ResourceNotFoundError(uri);
      await requireAllowed(visibility, ctx, resourceItemOf(found), () => new ResourceNotFoundError(uri));
      if (found.kind === 'ui') return withCacheFields(await uiReadResult(uri, found.ui), settings.cache, modern);
      const { resource, variables } = found;
      const result = resourceResult(
        await resource.call(variables, contextInitOf(server, ctx, settings.states, uri)),
        uri,
        resource.model.mimeType,
      );
      return withCacheFields(result, resource.model.cache ?? settings.cache, modern);
    });
  });
  // A connection that outlives its requests follows what it subscribed to (catalog/live.ts); a request-scoped
  // instance keeps them with nothing to deliver later. A resource `auth.authorize` refuses the caller is
  // answered as an unknown URI is, and never followed (the refusal is logged by the policy's check).
  server.setRequestHandler('resources/subscribe', async (req, ctx) => {
    const uri = subscribedUri(req.params);
    const found = catalog.findResource(uri);
    if (!found || (await visibility.allows(ctx.http?.authInfo, resourceItemOf(found), ctx.mcpReq.id, ctx.sessionId)))
      server.subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (req) => {
    server.subscriptions.delete(subscribedUri(req.params));
    return {};
  });
}

/** `prompts/list` and `prompts/get`. */
export function installPromptHandlers(server: CatalogServer, catalog: Catalog, settings: ProtocolSettings, visibility: Visibility): void {
  server.handleHot('prompts/list', async (req, ctx) =>
    listed(server, ctx, catalog, settings, LIST_SHAPES['prompts/list'], await visibility.list(ctx.http?.authInfo, 'prompts'), req.params),
  );
  server.handleHot('prompts/get', async (req, ctx) => {
    const prompt = catalog.prompt(req.params.name);
    const unknown = () => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${req.params.name.slice(0, 128)}`);
    if (!prompt) throw unknown();
    await requireAllowed(visibility, ctx, { kind: 'prompt', name: prompt.model.name }, unknown);
    return answer(settings, ctx, prompt.model.name, async () =>
      promptResult(
        await prompt.call(stringArguments(req.params.arguments), contextInitOf(server, ctx, settings.states, prompt.model.name)),
        prompt.model.description,
      ),
    );
  });
}

/** The item a completion request completes, as `auth.authorize` is asked about it; none for an unknown reference. */
function completionItemOf(catalog: Catalog, ref: { type: string; name?: string; uri?: string }): AuthorizeItem | undefined {
  if (ref.type === 'ref/prompt') return { kind: 'prompt', name: String(ref.name) };
  if (ref.type !== 'ref/resource') return undefined;
  const found = catalog.findResource(String(ref.uri));
  return found ? resourceItemOf(found) : { kind: 'template', name: String(ref.uri) };
}

/** Most completion values one answer carries (the protocol's limit). */
const MAX_COMPLETIONS = 100;

/** The string values of `context.arguments` in a completion request. */
function resolvedArguments(context: unknown): Readonly<Record<string, string>> {
  const args = (context as { arguments?: unknown } | undefined)?.arguments;
  const resolved: Record<string, string> = Object.create(null);
  if (isObjectLike(args)) for (const [k, v] of Object.entries(args)) if (typeof v === 'string') resolved[k] = v;
  return Object.freeze(resolved);
}

/** `completion/complete` for prompt arguments and resource-template variables. */
export function installCompletionHandler(server: Server, catalog: Catalog, settings: ProtocolSettings, visibility: Visibility): void {
  handleRequest(server, 'completion/complete', (req, ctx) =>
    answer(settings, ctx, '', async () => {
      const ref = req.params.ref as { type: string; name?: string; uri?: string };
      const unknown = () =>
        new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${ref.type === 'ref/prompt' ? 'prompt' : 'resource template'}.`);
      const item = completionItemOf(catalog, ref);
      if (item) await requireAllowed(visibility, ctx, item, unknown);
      const values = await catalog.complete({
        ref,
        argument: req.params.argument.name,
        typed: req.params.argument.value,
        resolved: resolvedArguments(req.params.context),
        requestId: ctx.mcpReq.id,
        sessionId: ctx.sessionId,
      });
      if (!values) throw unknown();
      const shown = values.slice(0, MAX_COMPLETIONS);
      return { completion: { values: shown, total: values.length, hasMore: values.length > shown.length } };
    }),
  );
}
