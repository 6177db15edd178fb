type Id = string | number;

/**
 * Requests in progress, by JSON-RPC id: a `Map` whose first entry is kept in a slot of its own. A `Map` that goes
 * from one entry to none shrinks its table, and grows it again for the next entry: two allocations for every request
 * where one request at a time is usual (a server of the HTTP 2026-07-28 pool, a connection whose client waits for
 * each answer). With the slot, such a request allocates nothing here.
 */
export class InFlight<V> {
  /** The slot's id; `undefined` when the slot is free (no id is `undefined`). */
  private slotId: Id | undefined;
  private slotValue: V | undefined;
  private readonly rest = new Map<Id, V>();

  get size(): number {
    return (this.slotId === undefined ? 0 : 1) + this.rest.size;
  }

  has(id: Id): boolean {
    return this.slotId === id || this.rest.has(id);
  }

  get(id: Id): V | undefined {
    return this.slotId === id ? this.slotValue : this.rest.get(id);
  }

  /** Keeps `value` as the one of `id`, in place of any earlier one (as `Map.set`). */
  set(id: Id, value: V): void {
    if (this.slotId === id || (this.slotId === undefined && !this.rest.has(id))) {
      this.slotId = id;
      this.slotValue = value;
    } else {
      this.rest.set(id, value);
    }
  }

  /** Forgets `id`, when `value` is still the one of `id` (a later request may have taken the id). */
  settle(id: Id, value: V): void {
    if (this.slotId === id) {
      if (this.slotValue !== value) return;
      this.slotId = undefined;
      this.slotValue = undefined;
    } else if (this.rest.get(id) === value) {
      this.rest.delete(id);
    }
  }

  /** Visits every value (the slot's first, then the others in the order they came). */
  forEach(visit: (value: V) => void): void {
    if (this.slotId !== undefined) visit(this.slotValue as V);
    for (const value of this.rest.values()) visit(value);
  }

  /** Every value, and none kept any more. */
  takeAll(): V[] {
    const all = [...this.rest.values()];
    if (this.slotId !== undefined) all.unshift(this.slotValue as V);
    this.slotId = undefined;
    this.slotValue = undefined;
    this.rest.clear();
    return all;
  }
}
