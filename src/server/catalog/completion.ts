import type { Log } from '../../log';
import { unwrap, type TypeNode } from '../../schema/model';
import { runCompleter } from '../../invoke/calling/completions';
import type { RegisteredPrompt, RegisteredResource } from './entries';

/** A `completion/complete` request, read: what is completed, what was typed and what the client resolved already. */
export interface CompletionRequest {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: string;
  readonly typed: string;
  readonly resolved: Readonly<Record<string, string>>;
  readonly requestId?: string | number;
  readonly sessionId?: string;
}

/**
 * Completion values for a template variable or prompt argument of `entry` (the prompt or resource the request's
 * reference names): what its completion function returns, else the listed values of an enum type that start with
 * what was typed, else nothing.
 */
export async function completionsOf(
  entry: RegisteredPrompt | RegisteredResource,
  request: CompletionRequest,
  log: Log,
): Promise<readonly string[]> {
  const { ref, argument, typed } = request;
  const completer = entry.model.completers?.get(argument);
  if (completer) {
    const site = {
      kind: ref.type === 'ref/prompt' ? ('prompt' as const) : ('resource' as const),
      name: entry.model.name,
      log,
      requestId: request.requestId,
      sessionId: request.sessionId,
    };
    return runCompleter(completer, entry.instance, typed, { argument, arguments: request.resolved }, site);
  }
  const type: TypeNode | undefined = entry.model.params.find((p) => p.name === argument)?.type;
  const bare = type && unwrap(type);
  if (bare?.kind !== 'enum') return [];
  return bare.listed.filter((n) => n.startsWith(typed));
}
