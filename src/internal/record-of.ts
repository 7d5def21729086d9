/**
 * A prototype-free object with a map's entries. Counters keyed by tool names are built this way
 * because on a plain object `obj["__proto__"] = n` sets the prototype instead of a key, and
 * `obj["constructor"]` already holds `Object`.
 */
export function recordOf<T>(entries: ReadonlyMap<string, T>): Record<string, T> {
  const record: Record<string, T> = Object.create(null);
  for (const [key, value] of entries) record[key] = value;
  return record;
}
