import type { ServerCapabilities } from '@modelcontextprotocol/server';
import { APP_MIME_TYPE, APPS_EXTENSION, type Catalog } from '../catalog/catalog';
import { TASKS_EXTENSION } from '../tasks/extension';
import { SKILLS_EXTENSION } from '../catalog/skills';

/**
 * The capabilities a server declares for its catalog: protocol/server.ts gives them to the SDK `Server`, the stdio
 * loop (stdio/loop.ts) answers `initialize` with them before the SDK is loaded. No SDK module is loaded here.
 */

export function capabilitiesOf(catalog: Catalog): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  if (catalog.hasResources) capabilities.resources = { subscribe: true, listChanged: true };
  if (catalog.hasPrompts) capabilities.prompts = { listChanged: true };
  if (catalog.hasResources || catalog.hasPrompts) capabilities.completions = {};
  const extensions: NonNullable<ServerCapabilities['extensions']> = {};
  if (catalog.usesApps) extensions[APPS_EXTENSION] = { mimeTypes: [APP_MIME_TYPE] };
  // As the SDK's skills extension declares itself (sdk/skills.ts reads it off its `attach`).
  if (catalog.skills)
    extensions[SKILLS_EXTENSION] = catalog.skills.loaded.capability as NonNullable<ServerCapabilities['extensions']>[string];
  if (catalog.usesTasks) {
    // Both revisions' declarations; CatalogServer.getCapabilities advertises the one of the served revision.
    (capabilities as Record<string, unknown>).tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    extensions[TASKS_EXTENSION] = {};
  }
  if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
  return capabilities;
}

/** The capabilities as a revision advertises them: tasks as the 2025-11-25 `tasks` entry or the 2026-07-28 extension. */
export function advertisedIn(modern: boolean, capabilities: ServerCapabilities): ServerCapabilities {
  const { tasks, extensions, ...rest } = capabilities as ServerCapabilities & { tasks?: unknown };
  if (tasks === undefined) return capabilities;
  if (modern) return { ...rest, extensions } as ServerCapabilities;
  const { [TASKS_EXTENSION]: _modern, ...others } = extensions ?? {};
  return (Object.keys(others).length > 0 ? { ...rest, tasks, extensions: others } : { ...rest, tasks }) as ServerCapabilities;
}
