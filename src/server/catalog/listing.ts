import type { Icon } from '../../decorators/listing-options';
import type { ToolModel } from '../../schema/model';
import { inputSchemaOf, outputSchemaOf } from '../../schema/write';
import type { JsonSchema } from '../../schema/model';
import { CLOSED, type ValidationPolicy } from '../../schema/records/validation-options';

/** One `tools/list` entry exactly as it is sent. */
export interface ToolListing {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: Readonly<Record<string, unknown>>;
  readonly execution?: { readonly taskSupport: 'optional' | 'required' };
  readonly icons?: readonly Icon[];
  readonly _meta?: ToolUiMeta;
}

/**
 * A tool's MCP Apps metadata: `ui` as the extension defines it, and the same view under the older flat key
 * `ui/resourceUri`, which hosts written before `_meta.ui` still read (the extension's `registerAppTool` writes
 * both).
 */
export interface ToolUiMeta {
  readonly ui: { readonly resourceUri?: string; readonly visibility: readonly string[] };
  readonly 'ui/resourceUri'?: string;
}

function uiMetaOf(ui: NonNullable<ToolModel['ui']>): ToolUiMeta {
  if (ui.resourceUri === undefined) return { ui: { visibility: [...ui.visibility] } };
  return { ui: { resourceUri: ui.resourceUri, visibility: [...ui.visibility] }, 'ui/resourceUri': ui.resourceUri };
}

/** Whether a tool is for MCP Apps views only: neither listed to nor callable by clients without the extension. */
export function appOnly(tool: ToolModel): boolean {
  return tool.ui !== undefined && !tool.ui.visibility.includes('model');
}

/**
 * Writes a tool's listing once; `apps` says whether the client negotiated MCP Apps (`_meta.ui`); records are
 * written under the validation policy in force.
 */
export function listingOf(tool: ToolModel, apps: boolean, policy: ValidationPolicy = CLOSED): ToolListing {
  const entry: Record<string, unknown> = { name: tool.name };
  if (tool.title !== undefined) entry.title = tool.title;
  if (tool.description !== undefined) entry.description = tool.description;
  entry.inputSchema = tool.rawInput?.schema ?? tool.standardInput?.root ?? inputSchemaOf(tool.params, policy);
  const output = outputSchemaOf(tool.result);
  if (output) entry.outputSchema = output;
  if (tool.annotations) entry.annotations = { ...tool.annotations };
  if (tool.task) entry.execution = { taskSupport: tool.task };
  if (tool.icons) entry.icons = tool.icons;
  if (apps && tool.ui) entry._meta = uiMetaOf(tool.ui);
  return entry as unknown as ToolListing;
}
