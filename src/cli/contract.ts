import type { ProfileName } from '../schema/profiles';
import type { ProjectServer } from './entry';

/**
 * The contract a snapshot holds: every listing of the server as it is sent, tools once per listing profile (the
 * profiles write tools only), each list sorted by its key so the file does not move when declarations do. The text
 * is stable (two-space JSON, one trailing newline), so a snapshot is committed and reviewed like code.
 */

export const PROFILES: readonly ProfileName[] = ['exact', 'gemini', 'openai-strict'];

/** The snapshot's shape: `profiles.<profile>.tools`, then the resources, templates and prompts. */
export interface Contract {
  readonly profiles: Readonly<Record<string, { readonly tools: readonly unknown[] }>>;
  readonly resources: readonly unknown[];
  readonly resourceTemplates: readonly unknown[];
  readonly prompts: readonly unknown[];
}

export function contractOf(server: ProjectServer): Contract {
  const profiles: Record<string, { readonly tools: readonly unknown[] }> = {};
  for (const profile of PROFILES) profiles[profile] = { tools: sortedBy(server.listTools({ listing: profile }), 'name') };
  const { resources, templates, prompts } = server.listings();
  return {
    profiles,
    resources: sortedBy(resources, 'uri'),
    resourceTemplates: sortedBy(templates, 'uriTemplate'),
    prompts: sortedBy(prompts, 'name'),
  };
}

/** The snapshot file's text. */
export function contractText(contract: Contract): string {
  return `${JSON.stringify(contract, null, 2)}\n`;
}

/** How many of each the contract holds, in words: `2 tools, 1 resource, no resource templates, 1 prompt`. */
export function contractSummary(contract: Contract): string {
  const count = (n: number, one: string) => `${n === 0 ? 'no' : n} ${one}${n === 1 ? '' : 's'}`;
  return [
    count(contract.profiles.exact.tools.length, 'tool'),
    count(contract.resources.length, 'resource'),
    count(contract.resourceTemplates.length, 'resource template'),
    count(contract.prompts.length, 'prompt'),
  ].join(', ');
}

function sortedBy<T extends object>(items: readonly T[], key: string): readonly T[] {
  const of = (item: T) => String((item as Record<string, unknown>)[key]);
  // Code-unit order, not the locale's: the same file on every machine.
  return [...items].sort((a, b) => (of(a) < of(b) ? -1 : of(a) > of(b) ? 1 : 0));
}
