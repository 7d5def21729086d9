/**
 * A Map bounded to `limit` entries that evicts the least recently used one. toolsift's per-process
 * caches (plans, listings, budgeted bases) go through it so a host that varies settings or
 * sessions forever does not grow forever; `size` is reported in `metrics().caches`.
 */
export class LRUCache<K, V> {
  readonly #entries = new Map<K, V>();

  /** `limit` is the most entries kept (at least 1). */
  constructor(readonly limit: number) {}

  /** The value for `key`, marking it most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order: re-inserting moves the key to the recent end
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Stores `value`, evicting the least recently used entries past `limit`. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const old of this.#entries.keys()) {
      if (this.#entries.size <= Math.max(1, this.limit)) break;
      this.#entries.delete(old);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The values, least recently used first (reading them does not mark them used). */
  values(): IterableIterator<V> {
    return this.#entries.values();
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
