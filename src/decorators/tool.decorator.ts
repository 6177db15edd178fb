import { UsageTypeError } from '../errors';
import type { ToolOptions } from './member-options';
import {
  checkBoolean,
  checkPublic,
  checkScopes,
  checkString,
  memberDecorator,
  refuseBareUse,
  snapshotted,
  type MemberDecorator,
} from './member';

/**
 * Makes an instance method an MCP tool.
 * @example
 * class Weather {
 *   @Tool({ readOnly: true })
 *   getForecast(city: string, days: number = 3): string { ... }
 * }
 */
export function Tool(nameOrOptions?: string | ToolOptions): MemberDecorator {
  refuseBareUse('Tool', nameOrOptions, arguments[1]);
  const options: ToolOptions =
    typeof nameOrOptions === 'string' ? { name: nameOrOptions } : snapshotted({ ...nameOrOptions }, ['icons', 'cache']);
  for (const key of ['name', 'title', 'description', 'uiResource'] as const) checkString('Tool', key, options[key]);
  for (const key of ['readOnly', 'destructive', 'idempotent', 'openWorld', 'taskAfterInput'] as const)
    checkBoolean('Tool', key, options[key]);
  if (options.task !== undefined && options.task !== 'optional' && options.task !== 'required') {
    throw new UsageTypeError(`@Tool(): 'task' must be 'optional' or 'required'.`);
  }
  if (options.uiVisibility !== undefined && !Array.isArray(options.uiVisibility)) {
    throw new UsageTypeError(`@Tool(): 'uiVisibility' must be an array such as ['model', 'app'].`);
  }
  const scopes = checkPublic('@Tool()', options.public, checkScopes('@Tool()', options.scopes));
  return memberDecorator({
    kind: 'tool',
    options: { ...options, scopes, uiVisibility: options.uiVisibility && Object.freeze([...options.uiVisibility]) },
  });
}
