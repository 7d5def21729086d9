/** A small table of generic software verbs and nouns that mean the same thing in tool catalogs. */

import { stem } from "../../text/index.js";

// Generic vocabulary only: words any tool catalog uses, never words of one domain or benchmark.
const GROUPS = [
  "get fetch retrieve read obtain load lookup",
  "create add new make insert generate",
  "delete remove erase destroy drop",
  "list show enumerate browse",
  "update edit modify change patch set",
  "search find query lookup locate discover",
  "send post publish submit",
  "run execute invoke start launch trigger",
  "stop cancel terminate halt abort kill",
  "download save export",
  "write save store",
  "upload import",
  "picture image photo",
  "message msg chat",
  "repository repo",
  "directory folder",
  "document doc",
  "information info details",
];

const table = new Map<string, string[]>();
for (const group of GROUPS) {
  const stems = [...new Set(group.split(" ").map((word) => stem(word)))];
  for (const member of stems) {
    const others = table.get(member) ?? [];
    for (const other of stems) if (other !== member && !others.includes(other)) others.push(other);
    table.set(member, others);
  }
}

/** Stems that mean about the same as the given stem (excluding itself); empty when none. */
export function synonymsOf(stemmed: string): readonly string[] {
  return table.get(stemmed) ?? [];
}
