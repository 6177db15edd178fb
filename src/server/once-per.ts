/**
 * "Once per key and interval": what a client did wrong is worth one log line per kind and interval, not one per
 * request, or any anonymous client could fill the server's log. Keys are forgotten once their interval passed, and
 * at most `maxKeys` are remembered (the oldest go first), so the map stays bounded under a flood of distinct keys.
 */
export class OncePer {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly intervalMs: number,
    private readonly maxKeys = 1000,
  ) {}

  /** Whether `key` was not seen within the interval (and notes it now). */
  due(key: string): boolean {
    const now = Date.now();
    const seen = this.last.get(key);
    if (seen !== undefined && now - seen < this.intervalMs) return false;
    this.last.delete(key);
    if (this.last.size >= this.maxKeys) this.last.delete(this.last.keys().next().value as string);
    this.last.set(key, now);
    return true;
  }
}
