/**
 * The keys seen most recently, up to a capacity (the oldest is forgotten first). Enough to drop the
 * repeats of one connection's snapshot, backfill and live frames; what is forgotten is still stored
 * once, by the tables' unique keys.
 */
export class RecentKeys {
  private readonly keys = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** True if the key is new (and now remembered). */
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.values().next().value!);
    return true;
  }
}
