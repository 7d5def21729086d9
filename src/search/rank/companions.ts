/**
 * Companions: the tools a hit needs beside it. A hit that requires an entity's id (`project_id`)
 * is attached the tool of its server that finds that entity (`prerequisites.ts`); a hit whose
 * description names another tool of its server ("must come from `get-station-code`") is attached
 * that tool (`mentions.ts`). A companion never takes a hit's place: it is listed on the hit, and
 * a flat ranking (`rank`) places it right after the hit, never before the best direct match.
 */

import type { MentionIndex } from "./mentions.js";
import type { PrerequisiteIndex } from "./prerequisites.js";

/** Why a companion is attached, for the hit's `companions` list. */
export interface CompanionLink {
  /** The companion's document id. */
  doc: number;
  /** `finder`: it finds the id the hit needs; `mentioned`: the hit's text names it. */
  via: "finder" | "mentioned";
  /** The hit's parameter the companion supplies (finders only). */
  parameter?: string;
}

/** Which kinds of companion are looked up (see `RankingConfig`). */
export interface CompanionSwitches {
  finderCompanions: boolean;
  mentionCompanions: boolean;
}

/**
 * The companions of `doc`: its finder first, then the tools its text names, each once and only
 * when `allowed` (the query's exclusions, servers and the caller's filter).
 */
export function companionsOf(
  doc: number,
  switches: CompanionSwitches,
  steps: { finders: PrerequisiteIndex; mentions: MentionIndex },
  allowed: (doc: number) => boolean,
): CompanionLink[] {
  const out: CompanionLink[] = [];
  const found = switches.finderCompanions ? steps.finders.finderFor(doc) : undefined;
  if (found !== undefined && allowed(found.finder)) {
    out.push({ doc: found.finder, via: "finder", parameter: found.parameter });
  }
  if (!switches.mentionCompanions) return out;
  for (const named of steps.mentions.mentionedBy(doc)) {
    if (named === doc || out.some((link) => link.doc === named) || !allowed(named)) continue;
    out.push({ doc: named, via: "mentioned" });
  }
  return out;
}

/**
 * A flat ranking with companions: each of the first `attachTo` documents is followed by its
 * companions not already placed before it (a companion ranked lower moves up to follow its hit);
 * the result keeps at most `limit` documents. The first document stays first, so a companion
 * never precedes the best direct match.
 */
export function placeCompanions(
  selected: readonly number[],
  links: ReadonlyMap<number, readonly CompanionLink[]>,
  limit: number,
  attachTo = Number.POSITIVE_INFINITY,
): { order: number[]; placedAfter: Map<number, number> } {
  const order: number[] = [];
  const placed = new Set<number>();
  const placedAfter = new Map<number, number>();
  let hits = 0;
  for (const doc of selected) {
    if (order.length >= limit) break;
    hits += 1;
    if (!placed.has(doc)) {
      placed.add(doc);
      order.push(doc);
    }
    if (hits > attachTo) continue;
    for (const link of links.get(doc) ?? []) {
      if (order.length >= limit) break;
      if (placed.has(link.doc)) continue;
      placed.add(link.doc);
      order.push(link.doc);
      placedAfter.set(link.doc, doc);
    }
  }
  return { order, placedAfter };
}

/** The model-facing reason of a companion: "needs project_id" or "named in its description". */
export function companionReason(link: CompanionLink): string {
  return link.via === "finder" ? `needs ${link.parameter ?? "id"}` : "named in its description";
}
