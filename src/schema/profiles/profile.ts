import { UsageTypeError } from '../../errors';
/**
 * Listing profiles (DESIGN.md section 11): which writer a client's `tools/list` comes from. `'exact'` is the
 * listing of write.ts, byte for byte; `'gemini'` fits Gemini's function-declaration `parameters` schema,
 * `'openai-strict'` OpenAI's strict function calling. A server picks one for all, or one per client.
 */

export type ProfileName = 'exact' | 'gemini' | 'openai-strict';

/** The client a per-client choice is made for: what `initialize` (2025 era) or the request's `_meta` (2026-07-28) says. */
export interface ListingClient {
  readonly clientInfo?: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly protocolVersion?: string;
}

/** The `listing` option: one profile for every client, or a function of the client. */
export type ListingOption = ProfileName | ((client: ListingClient) => ProfileName);

/** A profile in force: its writer, and whether every constraint is also said in words (`describeConstraints`). */
export interface Profile {
  readonly name: ProfileName;
  readonly describe: boolean;
  /** `name`, with `+words` when `describe` differs from the profile's default: the cache key of its listings. */
  readonly key: string;
}

const NAMES: readonly ProfileName[] = ['exact', 'gemini', 'openai-strict'];

function make(name: ProfileName, describe: boolean): Profile {
  const byDefault = name !== 'exact';
  return Object.freeze({ name, describe, key: describe === byDefault ? name : `${name}${describe ? '+words' : '-words'}` });
}

/** Every profile, interned: one object per name and `describe`, compared by identity. */
const PROFILES = new Map<string, Profile>(
  NAMES.flatMap((n) => [make(n, true), make(n, false)].map((p) => [`${p.name} ${p.describe}`, p] as const)),
);

/** The listing of write.ts, as it always was. */
export const EXACT: Profile = PROFILES.get('exact false')!;

export function profileOf(name: ProfileName, describe?: boolean): Profile {
  return PROFILES.get(`${name} ${describe ?? name !== 'exact'}`)!;
}

export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (NAMES as readonly string[]).includes(value);
}

/** Checks a `listing` option (a TypeError naming the choices otherwise). */
export function checkListing(listing: unknown, where: string): ListingOption | undefined {
  if (listing === undefined || isProfileName(listing) || typeof listing === 'function') return listing as ListingOption | undefined;
  throw new UsageTypeError(
    `${where}: listing takes 'exact', 'gemini', 'openai-strict' or a function of the client returning one, for example { listing: 'gemini' }; got ${JSON.stringify(listing)}.`,
  );
}

/** Picks the profile of a client; `undefined` when every client gets the exact listing (the common case, at no cost). */
export type ProfilePicker = (client: ListingClient) => Profile;

/**
 * The picker of a `listing` option and `describeConstraints`; `undefined` for the exact listing without words. A
 * function that throws or answers something else than a profile name gives the exact listing, and `onError` is told.
 */
export function pickerOf(
  listing: ListingOption | undefined,
  describe: boolean | undefined,
  onError: (message: string, error?: unknown) => void,
): ProfilePicker | undefined {
  if (listing === undefined || typeof listing === 'string') {
    const profile = profileOf(listing ?? 'exact', describe);
    return profile === EXACT ? undefined : () => profile;
  }
  return (client) => {
    let name: unknown;
    try {
      name = listing(client);
    } catch (error) {
      onError('the listing function threw; the client gets the exact listing', error);
      return profileOf('exact', describe);
    }
    if (isProfileName(name)) return profileOf(name, describe);
    onError(
      `the listing function returned ${JSON.stringify(name)}, not 'exact', 'gemini' or 'openai-strict'; the client gets the exact listing`,
    );
    return profileOf('exact', describe);
  };
}

/** Whether a `listing` option may list under `'openai-strict'` (or `'gemini'`): what definition-time warnings are for. */
export function mayList(listing: ListingOption | undefined, name: ProfileName): boolean {
  return listing === name || typeof listing === 'function';
}
