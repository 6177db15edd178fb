import { ValidationPipe, type Logger } from '@nestjs/common';
import type { ExternalContextCreator } from '@nestjs/core';
import type { McpServer, ValidationOptions } from '../index';

/** The seam of `McpServer` that takes the validation options before the first tool is added (mcp-server.ts). */
const SET_VALIDATION = Symbol.for('onemodelcontext.setValidation');

/** What the module reads of a global `ValidationPipe`: its private members, as Nest 11 and 12 name them. */
interface PipeMembers {
  readonly validatorOptions?: unknown;
  readonly isTransformEnabled?: unknown;
}

/** What the module reads of Nest's container: the application config and its global pipes. */
interface ContainerLike {
  readonly applicationConfig?: { getGlobalPipes?: () => readonly unknown[] };
}

/**
 * The one seam that reads the app's global `ValidationPipe` (`app.useGlobalPipes(new ValidationPipe(...))` or an
 * `APP_PIPE` provider, both in Nest's `ApplicationConfig` by the time modules initialise): its
 * `validatorOptions` and `isTransformEnabled`, which Nest keeps as (TypeScript-)private members. Anything
 * unexpected falls back to the default options with one log line saying so. `undefined` when there is no such pipe.
 */
export function appPipeValidation(contexts: ExternalContextCreator, logger: Pick<Logger, 'warn'>): ValidationOptions | undefined {
  const container = (contexts as unknown as { container?: ContainerLike }).container;
  const pipes = container?.applicationConfig?.getGlobalPipes?.();
  if (!Array.isArray(pipes)) {
    logger.warn(
      "The app's global pipes could not be read (Nest's ApplicationConfig has changed): tools validate with the default options { whitelist: true, forbidNonWhitelisted: true }; give McpModule.forRoot({ validation }).",
    );
    return undefined;
  }
  // The app's own subclass of ValidationPipe counts too.
  const pipe = pipes.find((p): p is PipeMembers => p instanceof ValidationPipe);
  if (!pipe) return undefined;
  const options = pipe.validatorOptions;
  // Inline, not objects.ts's isObjectLike: src/nest imports only the public API (../index).
  if (typeof options !== 'object' || options === null || typeof pipe.isTransformEnabled !== 'boolean') {
    logger.warn(
      "The app's ValidationPipe options could not be read (its private members have changed): tools validate with the default options { whitelist: true, forbidNonWhitelisted: true }; give McpModule.forRoot({ validation }).",
    );
    return undefined;
  }
  const o = options as Record<string, unknown>;
  // Explicit values: an option the pipe leaves out is class-validator's default (`false`), not ours.
  return {
    whitelist: o.whitelist === true,
    forbidNonWhitelisted: o.forbidNonWhitelisted === true,
    transform: pipe.isTransformEnabled,
    skipMissingProperties: o.skipMissingProperties === true,
    forbidUnknownValues: o.forbidUnknownValues === true,
    ...(Array.isArray(o.groups) && { groups: o.groups.filter((g): g is string => typeof g === 'string') }),
  };
}

/** Gives the server the validation options in force: the module's own, else the app pipe's, else the default. */
export function applyValidation(server: McpServer, validation: ValidationOptions | undefined): void {
  if (validation === undefined) return;
  (server as unknown as Record<symbol, (v: ValidationOptions) => void>)[SET_VALIDATION](validation);
}
