/** Where a tool name's own part starts, after its namespace: shared by search's name lookups and "did you mean". */

/** Offset where a name's last part begins (after the last `__`, `.`, `/` or `:`), or 0. */
export function nameSuffixStart(name: string): number {
  const cut = Math.max(
    name.lastIndexOf("__") + 1,
    name.lastIndexOf("."),
    name.lastIndexOf("/"),
    name.lastIndexOf(":"),
  );
  return cut > 0 ? cut + 1 : 0;
}

/** The part of a tool name after its namespace (`mcp__github__create_issue` → `create_issue`). */
export function nameSuffix(name: string): string {
  return name.slice(nameSuffixStart(name));
}
