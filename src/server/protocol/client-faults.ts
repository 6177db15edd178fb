import type { Log } from '../../log';
import { OncePer } from '../once-per';

/**
 * What the SDK's transports report through `onerror` is mostly a client's mistake (a body that is not JSON, a
 * message that is not JSON-RPC, a wrong `Accept`, an unknown session), already answered with a 4xx. Logged as a
 * fault of ours, with its stack, each would let any anonymous client fill the server's log (issue 25). So a
 * client's mistake is logged at debug, once per kind a minute, without a stack or anything the client wrote; a
 * fault of ours (anything else) keeps its warning and its stack.
 */

const INTERVAL_MS = 60_000;

/** The SDK's words for what a client did wrong, up to where client values begin. */
const CLIENT_FAULTS: readonly RegExp[] = [
  /^Rejected inbound request \(([a-z-]+)\)/,
  /^(Parse error)\b/,
  /^(Invalid Request: [A-Za-z ]+)/,
  /^(Bad Request: [A-Za-z -]+)/,
  /^(Unsupported Media Type)\b/,
  /^(Not Acceptable)\b/,
  /^(Method not allowed)\b/,
  /^(Invalid event ID format)\b/,
  /^(Conflict: [A-Za-z ]+)/,
  /^(Session not found)\b/,
  /^(Payload Too Large)\b/,
  /^(Request body (?:exceeds|is too large)[A-Za-z ]*)/,
];

/** The kind of a client's mistake, or `undefined` for a fault of ours. */
export function clientFaultOf(error: Error): string | undefined {
  // JSON.parse of a body, and the SDK's schema check of a message (its message is the whole issue list).
  if (error instanceof SyntaxError) return 'a body that is not JSON';
  if (error.name === 'ZodError' || error.name === '$ZodError') return 'a message that is not JSON-RPC';
  const message = typeof error.message === 'string' ? error.message : '';
  for (const pattern of CLIENT_FAULTS) {
    const kind = pattern.exec(message)?.[1];
    if (kind !== undefined) return kind.trim();
  }
  return undefined;
}

const reporters = new WeakMap<Log, (error: Error) => void>();

/** The `onerror` of the SDK's transports and servers for one server's log (one throttle per log). */
export function transportErrorReporter(log: Log): (error: Error) => void {
  let report = reporters.get(log);
  if (!report) {
    const seen = new OncePer(INTERVAL_MS);
    report = (error: Error) => {
      const kind = clientFaultOf(error);
      if (kind === undefined) return log.transportFailure(error);
      if (seen.due(kind))
        log.debug(`Refused a client's request: ${kind} (more of this kind within a minute are not logged)`, { event: 'request.refused' });
    };
    reporters.set(log, report);
  }
  return report;
}
