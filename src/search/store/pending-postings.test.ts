import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NO_POSTINGS, PendingPostings } from "./pending-postings.js";

const TERMS = 6;

/** Lists as plain pairs, after appending `[doc, packed]` postings in order. */
function expected(start: number[][], postings: [number, number, number][]): number[][] {
  const lists = start.map((list) => [...list]);
  for (const [term, doc, packed] of postings) lists[term]?.push(doc, packed);
  return lists;
}

describe("PendingPostings", () => {
  // postings grouped by document, as a bulk add produces them
  const batch = fc.array(
    fc.record({ doc: fc.nat(50), terms: fc.uniqueArray(fc.nat(TERMS - 1), { maxLength: TERMS }) }),
    { maxLength: 30 },
  );
  const start = fc.array(fc.array(fc.nat(99), { maxLength: 3 }), {
    minLength: TERMS,
    maxLength: TERMS,
  });

  it("appends held postings in arrival order across chunks, grown or packed exactly", () => {
    fc.assert(
      fc.property(
        batch,
        start,
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        (docs, pairs, pack, chunk) => {
          const begin = pairs.map((list) => list.flatMap((doc) => [doc, doc + 1]));
          const postings = begin.map((list) =>
            list.length === 0 ? NO_POSTINGS : Uint32Array.from(list),
          );
          const lengths = Int32Array.from(begin.map((list) => list.length));
          const pending = new PendingPostings(chunk);
          const held: [number, number, number][] = [];
          for (const { doc, terms } of docs) {
            for (const term of terms) {
              pending.push(term, doc, doc * 16 + term);
              held.push([term, doc, doc * 16 + term]);
            }
          }
          pending.drain(postings, lengths, pack);
          const lists = postings.map((list, term) => [...list.subarray(0, lengths[term])]);
          expect(lists).toEqual(expected(begin, held));
          if (pack)
            for (const [term, list] of postings.entries()) expect(list.length).toBe(lengths[term]);
          expect(NO_POSTINGS.length).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
