/**
 * Per-tool lists of term ids as a snapshot section: rows `[id, term count, term…]`, ids ascending.
 * The ranking steps that keep such a list per tool (the destructive step's name terms, name fit's
 * name words) save it here, so a restored index takes the lists as views into the snapshot and
 * splits no name.
 */

import type { SavedStore } from "./posting-store.js";
import { SnapshotProblem, type SnapshotReader, type SnapshotWriter } from "./snapshot-format.js";

/** Writes the rows of the live tools `ids` (ascending) that have a list (`termsOf` not undefined). */
export function saveTermRows(
  writer: SnapshotWriter,
  section: string,
  ids: readonly number[],
  termsOf: (id: number) => Int32Array | undefined,
): void {
  const rows: number[] = [];
  for (const id of ids) {
    const terms = termsOf(id);
    if (terms === undefined) continue;
    rows.push(id, terms.length);
    for (let index = 0; index < terms.length; index += 1) rows.push(terms[index] as number);
  }
  writer.array(section, "i32", Int32Array.from(rows));
}

/** How a step's rows are checked and named in the warning of a snapshot that fails the check. */
export interface TermRowsRule {
  /** What the rows list, for the warning: "destructive tools". */
  what: string;
  /** True for a term a row may hold. */
  holds: (term: number) => boolean;
  /** What a term failing `holds` is, for the warning: "terms that are in no name". */
  otherwise: string;
}

/**
 * Reads and checks section `section` for a snapshot's restored `store`: rows of live tools in id
 * order, each row inside the section and each term passing `rule.holds`. Any problem is a
 * `SnapshotProblem` (the index is then built).
 */
export function readTermRows(
  reader: SnapshotReader,
  section: string,
  store: SavedStore,
  rule: TermRowsRule,
): Int32Array {
  const rows = reader.i32(section);
  const { nextId } = store.counts;
  let previous = -1;
  for (let at = 0; at < rows.length; ) {
    const id = rows[at] as number;
    const count = rows[at + 1] ?? -1;
    const end = at + 2 + count;
    if (id <= previous || id >= nextId || store.alive[id] !== 1 || count < 0 || end > rows.length) {
      throw new SnapshotProblem(`its ${rule.what} are out of order or not live`);
    }
    for (let index = at + 2; index < end; index += 1) {
      if (!rule.holds(rows[index] as number)) {
        throw new SnapshotProblem(`its ${rule.what} name ${rule.otherwise}`);
      }
    }
    previous = id;
    at = end;
  }
  return rows;
}

/** Calls `visit` with each row's tool id and where its terms start and end in `rows`. */
export function forEachTermRow(
  rows: Int32Array,
  visit: (id: number, start: number, end: number) => void,
): void {
  for (let at = 0; at < rows.length; ) {
    const end = at + 2 + (rows[at + 1] as number);
    visit(rows[at] as number, at + 2, end);
    at = end;
  }
}
