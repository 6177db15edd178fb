import type { Icon } from '../../decorators/listing-options';
import type { ResourceAnnotationsModel } from '../../schema/members/listing-metadata';
import type { PromptModel } from '../../schema/members/prompts';
import type { ResourceModel, TemplatePart } from '../../schema/members/resources';

/** One `resources/list` or `resources/templates/list` entry exactly as it is sent. */
export interface ResourceListing {
  readonly uri?: string;
  readonly uriTemplate?: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Content size in bytes (resources, not templates). */
  readonly size?: number;
  readonly annotations?: ResourceAnnotationsModel;
  readonly icons?: readonly Icon[];
  /** An MCP Apps view's `_meta.ui` (ui-resource.ts). */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** One `prompts/list` entry exactly as it is sent. */
export interface PromptListing {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
  readonly icons?: readonly Icon[];
}

export function resourceListingOf(model: ResourceModel): ResourceListing {
  const entry: Record<string, unknown> = model.template ? { uriTemplate: model.uri } : { uri: model.uri };
  entry.name = model.name;
  if (model.title !== undefined) entry.title = model.title;
  if (model.description !== undefined) entry.description = model.description;
  if (model.mimeType !== undefined) entry.mimeType = model.mimeType;
  if (model.size !== undefined) entry.size = model.size;
  if (model.annotations !== undefined) entry.annotations = model.annotations;
  if (model.icons !== undefined) entry.icons = model.icons;
  return entry as unknown as ResourceListing;
}

export function promptListingOf(model: PromptModel): PromptListing {
  const entry: Record<string, unknown> = { name: model.name };
  if (model.title !== undefined) entry.title = model.title;
  if (model.description !== undefined) entry.description = model.description;
  if (model.params.length > 0) {
    entry.arguments = model.params.map((p) =>
      p.description === undefined
        ? { name: p.name, required: p.required }
        : { name: p.name, description: p.description, required: p.required },
    );
  }
  if (model.icons !== undefined) entry.icons = model.icons;
  return entry as unknown as PromptListing;
}

/** Matches a URI against a template: the decoded variable values, or `undefined`. */
export type UriMatcher = (uri: string) => Readonly<Record<string, string>> | undefined;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * RFC 6570 simple (`{name}`: one path segment, percent-decoded) and reserved (`{+name}`: any text)
 * expansion, read backwards.
 */
export function uriMatcherOf(parts: readonly TemplatePart[]): UriMatcher {
  const names: string[] = [];
  const reserved: boolean[] = [];
  const source = parts
    .map((p) => {
      if (p.kind === 'literal') return escape(p.text);
      names.push(p.name);
      reserved.push(p.reserved);
      return p.reserved ? '(.+?)' : '([^/?#]+)';
    })
    .join('');
  const pattern = new RegExp(`^${source}$`, 's');
  return (uri) => {
    const m = pattern.exec(uri);
    if (!m) return undefined;
    const values: Record<string, string> = Object.create(null);
    for (let i = 0; i < names.length; i++) {
      const raw = m[i + 1];
      try {
        values[names[i]] = reserved[i] ? raw : decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
    return values;
  };
}
