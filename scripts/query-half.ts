/** The stable split of labelled queries into halves: tune on one, check on the other. */

import { createHash } from "node:crypto";

/** Which half a query id hashes to. */
export function half(id: string): "a" | "b" {
  return (createHash("sha1").update(id).digest()[0] ?? 0) % 2 === 0 ? "a" : "b";
}
