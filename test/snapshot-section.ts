/** Reading and editing a snapshot's sections by hand, for tests of how a restore checks them. */
import { checksum } from "../src/search/store/snapshot-format.js";

/** A snapshot's i32 section as a view into its bytes. */
export function snapshotSection(bytes: Uint8Array, name: string): Int32Array {
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + headerLength)));
  const bodyStart = (16 + headerLength + 7) & ~7;
  const [, offset, count] = header.sections[name] as [string, number, number];
  return new Int32Array(bytes.buffer, bytes.byteOffset + bodyStart + offset, count);
}

/** An edit of an i32 section's values in place. */
export type SectionEdit = (values: Int32Array) => void;

/**
 * Edits that a check of per-tool term rows (`src/search/store/term-rows.ts`) must refuse, by what
 * they break, with a step's own (`extra`) added.
 */
export function termRowEdits(extra: Record<string, SectionEdit>): Record<string, SectionEdit> {
  return {
    "a tool id past the tools": (rows) => {
      rows[0] = 1_000;
    },
    "tool ids out of order": (rows) => {
      rows[0] = rows[2 + (rows[1] as number)] as number;
    },
    "a term past the vocabulary": (rows) => {
      rows[2] = 1_000_000;
    },
    "a row running past the end": (rows) => {
      rows[1] = 1_000;
    },
    ...extra,
  };
}

/**
 * A copy of `snapshot` per edit of section `name`, by the edit's name, with the checksum
 * rewritten: only the edited values are wrong.
 */
export function editedSnapshots(
  snapshot: Uint8Array,
  name: string,
  edits: Record<string, SectionEdit>,
): [string, Uint8Array][] {
  return Object.entries(edits).map(([problem, edit]) => {
    const bytes = snapshot.slice();
    edit(snapshotSection(bytes, name));
    new DataView(bytes.buffer).setUint32(12, checksum(bytes, 16), true);
    return [problem, bytes];
  });
}
