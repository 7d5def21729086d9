import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HashedIds, hashFrom, lowerHashFrom } from "./hashed-ids.js";

describe("lowerHashFrom", () => {
  it("hashes the lowercased text from `start`, ASCII or not", () => {
    for (const text of ["GetIssue", "mcp__Srv__List_Files", "CAFÉ_Crème", "", "İstanbul"]) {
      for (const start of [0, 2]) {
        expect(lowerHashFrom(text, start), text).toBe(hashFrom(text.slice(start).toLowerCase()));
      }
    }
  });
});

describe("HashedIds", () => {
  // few distinct hashes, so runs collide, wrap round the table and shift back on delete
  const operation = fc.record({
    add: fc.boolean(),
    hash: fc.integer({ min: -3, max: 300 }),
    id: fc.nat(400),
  });

  it("keeps per hash the ids in filing order across deletes and growth, as a list of pairs would", () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 400 }), (operations) => {
        const table = new HashedIds();
        const model: [number, number][] = [];
        for (const { add, hash, id } of operations) {
          if (add) {
            // an id is filed at most once at a time
            if (model.some(([, i]) => i === id)) continue;
            table.add(hash, id);
            model.push([hash, id]);
          } else {
            const at = model.findIndex(([h, i]) => h === hash && i === id);
            expect(table.delete(hash, id)).toBe(at >= 0);
            if (at >= 0) model.splice(at, 1);
          }
        }
        expect(table.size).toBe(model.length);
        for (const hash of new Set(operations.map((item) => item.hash))) {
          const expected = model.filter(([h]) => h === hash).map(([, id]) => id);
          expect(table.collect(hash, () => true, [])).toEqual(expected);
          expect(table.find(hash, (id) => id % 2 === 1)).toBe(
            expected.find((id) => id % 2 === 1) ?? -1,
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});
