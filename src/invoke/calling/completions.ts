import type { Completer, CompletionContext } from '../../decorators/listing-options';
import type { Log } from '../../log';
import { TextMethodFailedError } from './text-methods';

/**
 * Running a completion function (`@Complete`, the `complete` option): user code whose failures and junk results
 * are logged with what went wrong and answered to the client with a sentence that holds nothing internal.
 */

/** Most values that are checked and counted; a completion returning more is refused, not truncated silently. */
const MAX_VALUES = 100_000;

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.length <= MAX_VALUES && value.every((v) => typeof v === 'string');
}

/** Where a completion was asked for: a prompt's name or a template's URI, for messages. */
export interface CompletionSite {
  readonly kind: 'prompt' | 'resource';
  readonly name: string;
  readonly log: Log;
  readonly requestId?: string | number;
  readonly sessionId?: string;
}

/** The values a completion function returns for `typed`, checked; throws a `TextMethodFailedError` (JSON-RPC -32603). */
export async function runCompleter(
  completer: Completer,
  self: object,
  typed: string,
  context: CompletionContext,
  site: CompletionSite,
): Promise<readonly string[]> {
  const failed = (what: string, error?: unknown): TextMethodFailedError => {
    const details = {
      event: 'completion.failed' as const,
      [site.kind]: site.name,
      argument: context.argument,
      requestId: site.requestId,
      sessionId: site.sessionId,
    };
    site.log.error(
      `The completion of ${site.kind} '${site.name}', argument '${context.argument}' ${what}`,
      error === undefined ? details : { ...details, error },
    );
    return new TextMethodFailedError(`The completion of argument '${context.argument}' failed.`);
  };
  let values: unknown;
  try {
    values = await completer.call(self, typed, context);
  } catch (error) {
    throw failed('threw', error);
  }
  if (!isStringList(values)) {
    throw failed(
      Array.isArray(values) && values.length > MAX_VALUES
        ? `returned ${values.length} values, more than ${MAX_VALUES}`
        : `returned ${Array.isArray(values) ? 'a list holding something other than strings' : typeof values}, not a list of strings`,
    );
  }
  return values;
}
