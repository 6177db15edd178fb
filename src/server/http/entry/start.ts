import type { ServerCardOptions } from '../../catalog/server-card';
import type { SkillBuilds } from '../../catalog/skill-builds';
import type { HttpHandler, HttpHandlerOptions } from '../guards/options';

/**
 * The HTTP endpoint's modules (the SDK's Node adapter with Hono, auth, sessions), loaded when a server first
 * serves HTTP: a stdio server never pays for them at start-up. (This module imports none of them but as types.)
 */
export function http(): typeof import('./endpoint') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./endpoint') as typeof import('./endpoint');
}

/**
 * The `serverCard` document, built at each request (the catalog may change) after one build now, so a card that
 * cannot be written (a name not in reverse-DNS form) fails `serveHttp` or `createHttpHandler` rather than its first
 * reader.
 * With `auth` the primitives stay out: the card is public, and what a caller may see depends on its token.
 */
export function cardText(
  options: HttpHandlerOptions,
  serverCard: (options: ServerCardOptions, primitives: boolean) => Record<string, unknown>,
): () => string {
  const given = options.serverCard === true ? {} : (options.serverCard as ServerCardOptions);
  const cardOptions = { ...given, url: given.url ?? options.auth?.resource };
  const primitives = options.auth === undefined;
  const text = () => JSON.stringify(serverCard(cardOptions, primitives));
  text();
  return text;
}

/**
 * The handler, answering each request once the skills being built are (a handler is made synchronously, before
 * the `@Skill` methods of instances added since have given their files). A failed build was logged when it failed;
 * the request is then answered with the skills served before.
 */
export function waitingForSkills(handler: HttpHandler, skills: SkillBuilds): HttpHandler {
  const handle = handler.handle.bind(handler);
  handler.handle = (req, res, parsed) => {
    if (!skills.inProgress) return handle(req, res, parsed);
    const answer = () => handle(req, res, parsed);
    return skills.last.then(answer, answer);
  };
  return handler;
}
