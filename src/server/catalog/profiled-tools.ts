import type { ToolModel } from '../../schema/model';
import { EXACT, inputSchemaFor, type Profile } from '../../schema/profiles';
import { policyOf, type ValidationOptions } from '../../schema/records/validation-options';
import type { ToolListing } from './listing';

/**
 * The tool listings as a client of a listing profile (schema/profiles) is sent them, each written once: per
 * listed array (a change of the catalog makes new arrays) and profile, and per exact entry and profile.
 */
export class ProfiledTools {
  /** Tool arrays under a listing profile, per array (a change makes new arrays) and profile key. */
  private readonly profiled = new WeakMap<readonly ToolListing[], Map<string, readonly ToolListing[]>>();
  /** Tool entries under a listing profile, per profile key and exact entry. */
  private readonly profiledEntries = new Map<string, WeakMap<ToolListing, ToolListing>>();

  /**
   * The very array under the exact profile; else built once per array and profile, each entry with its
   * `inputSchema` written by the profile from the model `modelOf` finds for its name.
   */
  under(
    tools: readonly ToolListing[],
    profile: Profile,
    modelOf: (name: string) => ToolModel | undefined,
    validation: ValidationOptions | undefined,
  ): readonly ToolListing[] {
    if (profile === EXACT) return tools;
    let byProfile = this.profiled.get(tools);
    if (!byProfile) this.profiled.set(tools, (byProfile = new Map()));
    let shown = byProfile.get(profile.key);
    if (!shown) {
      let entries = this.profiledEntries.get(profile.key);
      if (!entries) this.profiledEntries.set(profile.key, (entries = new WeakMap()));
      const policy = policyOf(validation);
      const written = entries;
      shown = Object.freeze(
        tools.map((t) => {
          let entry = written.get(t);
          if (!entry) {
            const model = modelOf(t.name);
            const inputSchema = model ? inputSchemaFor(model, profile, policy) : t.inputSchema;
            // The same keys in the same order: only `inputSchema` changes.
            entry = inputSchema === t.inputSchema ? t : (Object.freeze({ ...t, inputSchema }) as ToolListing);
            written.set(t, entry);
          }
          return entry;
        }),
      );
      byProfile.set(profile.key, shown);
    }
    return shown;
  }
}
