import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import { loadCatalogPaths } from "../catalog/node.js";
import { suggestNames } from "./did-you-mean.js";
import { NameIndex } from "./name-index.js";

/** What "did you mean" answers from the index's candidates: must equal the exhaustive scan. */
function indexed(index: NameIndex, unknown: string, max = 3): string[] {
  return suggestNames(unknown, index.candidates(unknown), { max });
}

/** Typos a model makes: a dropped, doubled, swapped or changed letter, case, a namespace. */
function typos(name: string, seed: number): string[] {
  const at = seed % Math.max(1, name.length);
  return [
    name.slice(0, at) + name.slice(at + 1),
    name.slice(0, at) + name.charAt(at) + name.slice(at),
    name.slice(0, at) + name.charAt(at + 1) + name.charAt(at) + name.slice(at + 2),
    `${name.slice(0, at)}x${name.slice(at + 1)}`,
    name.toUpperCase(),
    `mcp__someserver__${name}`,
    name.slice(name.lastIndexOf("/") + 1),
    ` ${name}_v2 `,
  ];
}

describe("NameIndex", () => {
  it("gives the exhaustive scan's suggestions on the 1,371 real tool names", async () => {
    const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")]);
    const names = tools.map((tool) => tool.name);
    const index = new NameIndex(names);
    const probes = ["no_such_tool_number_7", "x", "ab", "", "   ", "list-issues", "İstanbul_read"];
    names.forEach((name, position) => {
      if (position % 7 === 0) probes.push(...typos(name, position));
    });
    expect(probes.length).toBeGreaterThan(1_000);
    for (const probe of probes) {
      expect(indexed(index, probe, 5), probe).toEqual(suggestNames(probe, names, { max: 5 }));
    }
  });

  it("gives the exhaustive scan's suggestions on arbitrary names (property)", () => {
    // a small alphabet with separators, case and a non-ASCII letter makes near names common
    const char = fc.constantFrom(..."abcAB_-./:1İé ");
    const name = fc.array(char, { minLength: 0, maxLength: 14 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), name, (names, probe) => {
        const index = new NameIndex(names);
        expect(indexed(index, probe, 4)).toEqual(suggestNames(probe, new Set(names), { max: 4 }));
      }),
      { numRuns: 500 },
    );
  });

  it("returns each name once, and nothing for a blank name", () => {
    const index = new NameIndex(["read_file", "read_file", "fs/read_file", "Read_File"]);
    const found = index.candidates("read_file");
    expect([...found].sort()).toEqual(["Read_File", "fs/read_file", "read_file"]);
    expect(index.candidates("  ")).toEqual([]);
  });
});
