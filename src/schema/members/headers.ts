import type { Problems } from '../diagnostics';
import { unwrap, type ParamModel } from '../model';

/**
 * SEP-2243 `x-mcp-header` declarations on tool arguments (`@Param({ header })`): what the protocol allows, checked
 * when the tool is defined so that no conforming client drops the tool for an invalid declaration.
 */

/** RFC 9110 `token`: no spaces, control characters or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_HEADER_NAME = 64;

/** The JSON types an `x-mcp-header` argument may have (not `number`, not nullable). */
function headerType(param: ParamModel): 'string' | 'integer' | 'boolean' | undefined {
  if (param.type.kind === 'nullable') return undefined;
  const kind = unwrap(param.type).kind;
  if (kind === 'string' || kind === 'integer' || kind === 'boolean') return kind;
  return kind === 'enum' ? 'string' : undefined;
}

export function checkHeaders(params: readonly ParamModel[], where: string, problems: Problems): void {
  // Built only for a tool that declares headers: most do not, and a server of 1,000 tools checks each one.
  let seen: Map<string, string> | undefined;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (p.header === undefined) continue;
    seen ??= new Map();
    const at = `${where}, parameter '${p.name}'`;
    if (!TOKEN.test(p.header) || p.header.length > MAX_HEADER_NAME) {
      problems.add(
        'OMCG0014',
        at,
        `header '${p.header.slice(0, MAX_HEADER_NAME)}' is not an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~, at most ${MAX_HEADER_NAME}).`,
        `name it like 'Region' (sent as Mcp-Param-Region).`,
      );
    }
    if (headerType(p) === undefined) {
      problems.add(
        'OMCG0014',
        at,
        `header is on a ${p.type.kind} argument; only string, integer and boolean arguments (not nullable) are mirrored into headers.`,
        'remove header, or change the type.',
      );
    }
    const prior = seen.get(p.header.toLowerCase());
    if (prior !== undefined)
      problems.add(
        'OMCG0014',
        at,
        `header '${p.header}' is also declared by '${prior}' (header names ignore case).`,
        'give each argument its own header name.',
      );
    seen.set(p.header.toLowerCase(), p.name);
  }
}
