/**
 * Listings per caller without giving up precomputed listings: a caller's scopes are reduced to the ones some
 * member needs (the rest cannot change what it sees), and each distinct reduced set gets its listing built once
 * and kept. A server with a handful of scopes has a handful of listings, however many tokens call it; the cap
 * only matters for a custom verifier that hands out scopes at random.
 */

const MAX_SETS = 256;

/** Whether `granted` holds every scope of `needed`. */
export function grants(granted: ReadonlySet<string>, needed: readonly string[]): boolean {
  for (const scope of needed) if (!granted.has(scope)) return false;
  return true;
}

export class ScopedListings<L> {
  private readonly built = new Map<string, L>();

  /**
   * @param relevant every scope some member needs
   * @param build the listing for callers holding exactly these relevant scopes
   */
  constructor(
    private readonly relevant: ReadonlySet<string>,
    private readonly build: (granted: ReadonlySet<string>) => L,
  ) {}

  /** How many distinct scope sets have a listing. */
  get size(): number {
    return this.built.size;
  }

  for(scopes: readonly string[]): L {
    const granted = [...new Set(scopes.filter((s) => this.relevant.has(s)))].sort();
    const key = granted.join(' ');
    let listing = this.built.get(key);
    if (listing === undefined) {
      listing = this.build(new Set(granted));
      if (this.built.size >= MAX_SETS) this.built.delete(this.built.keys().next().value as string);
      this.built.set(key, listing);
    }
    return listing;
  }
}
