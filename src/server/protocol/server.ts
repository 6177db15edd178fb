import type { Server } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/catalog';
import { SdkSeam } from '../sdk/seam';
import { Visibility } from '../auth/visibility';
import { installTaskHandlers } from '../tasks/handlers';
import { capabilitiesOf } from './capabilities';
import { CatalogServer } from './catalog-server';
import { transportErrorReporter } from './client-faults';
import type { ProtocolSettings } from './settings';
import { installSkills } from './skills';
import { installCompletionHandler, installPromptHandlers, installResourceHandlers } from './text-method-handlers';
import { installToolHandlers, taskRequestsOf } from './tool-handlers';

/**
 * One SDK `Server` instance over the precomputed catalog. The SDK makes one per HTTP request (2026-07-28),
 * one per session or connection (2025 era); each is a handful of handler registrations that look things
 * up in the shared catalog, so making one is cheap.
 */

// What server/connections.ts and the tests import of the protocol room: the server's make, its class, the 2025-era
// transport step and the error mapping (the handlers are in tool-handlers.ts and text-method-handlers.ts).
export { CatalogServer, withLegacyNotFoundCode } from './catalog-server';
export { protocolErrorOf } from './outcomes';
export type { ProtocolSettings } from './settings';

/** Builds one SDK `Server` serving the catalog. */
export function createProtocolServer(catalog: Catalog, settings: ProtocolSettings): CatalogServer {
  const { states } = settings;
  // The SDK's type of the info has mutable arrays; ours is frozen data it only reads.
  const server = new CatalogServer(settings.info as ConstructorParameters<typeof Server>[0], {
    capabilities: capabilitiesOf(catalog),
    instructions: settings.instructions,
    requestState: { verify: (state, ctx) => states.verify(state, ctx) },
    cacheHints: { 'server/discover': { ttlMs: settings.cache.ttlMs, cacheScope: settings.cache.scope } },
  });
  server.onerror = transportErrorReporter(settings.log);
  server.fastPaths = SdkSeam.of(settings.log).serverPaths();
  const visibility = new Visibility(catalog, settings.log);
  installToolHandlers(server, catalog, settings, visibility);
  if (catalog.usesTasks)
    installTaskHandlers(server, settings.tasks, settings.pager, catalog, taskRequestsOf(server, settings.states, visibility));
  const skillRead = catalog.skills ? installSkills(server, catalog.skills, visibility) : undefined;
  if (catalog.hasResources) installResourceHandlers(server, catalog, settings, visibility, skillRead);
  if (catalog.hasPrompts) installPromptHandlers(server, catalog, settings, visibility);
  if (catalog.hasResources || catalog.hasPrompts) installCompletionHandler(server, catalog, settings, visibility);
  return server;
}
