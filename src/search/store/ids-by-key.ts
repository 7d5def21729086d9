/** A map from a string key to the document ids sharing it, storing a lone id without an array. */

const NONE: readonly number[] = [];

/** Document ids by key; most keys (tool names) have exactly one id, kept as a bare number. */
export class IdsByKey {
  private readonly map = new Map<string, number | number[]>();

  /** Adds `id` under `key`. */
  add(key: string, id: number): void {
    const known = this.map.get(key);
    if (known === undefined) this.map.set(key, id);
    else if (typeof known === "number") this.map.set(key, [known, id]);
    else known.push(id);
  }

  /** Removes `id` from `key` (the key goes when its last id does). */
  delete(key: string, id: number): void {
    const known = this.map.get(key);
    if (known === undefined) return;
    if (typeof known === "number") {
      if (known === id) this.map.delete(key);
      return;
    }
    const rest = known.filter((item) => item !== id);
    if (rest.length === 0) this.map.delete(key);
    else this.map.set(key, rest.length === 1 ? (rest[0] as number) : rest);
  }

  /** The ids under `key`, in insertion order (empty when none). */
  get(key: string): readonly number[] {
    const known = this.map.get(key);
    if (known === undefined) return NONE;
    return typeof known === "number" ? [known] : known;
  }
}
