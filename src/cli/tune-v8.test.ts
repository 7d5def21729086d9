import { describe, expect, it } from "vitest";
import { LARGE_CATALOG_TOOLS, SEARCH_BUDGET_FACTOR, tuneForCatalog, tuneV8 } from "./tune-v8.js";

// Node 20's V8, the one the budget was measured on
const NODE_20_V8 = "11.3.244.8-node.33";

function flagsFor(command: string | undefined, toolCounts: number[] = []): string[] {
  const flags: string[] = [];
  tuneV8(command, (text) => flags.push(text), NODE_20_V8);
  for (const count of toolCounts) tuneForCatalog(count);
  tuneForCatalog(Number.MAX_SAFE_INTEGER); // back to the defaults for the next case
  return flags;
}

const raised = `--interrupt-budget=${67_584 * SEARCH_BUDGET_FACTOR}`;
const standard = "--interrupt-budget=67584";

describe("tuneV8", () => {
  it("makes a one-shot search wait longer before optimising a function", () => {
    expect(flagsFor("search")).toEqual([raised, standard]);
    expect(flagsFor("search", [1_371, LARGE_CATALOG_TOOLS])).toEqual([raised, standard]);
  });

  it("puts V8's default back once, for a catalog too large to gain from it", () => {
    const flags: string[] = [];
    tuneV8("search", (text) => flags.push(text), NODE_20_V8);
    tuneForCatalog(LARGE_CATALOG_TOOLS + 1);
    tuneForCatalog(LARGE_CATALOG_TOOLS + 1);
    expect(flags).toEqual([raised, standard]);
  });

  it("leaves V8's defaults to every other command (rank and serve run hot loops for long)", () => {
    for (const command of ["rank", "serve", "index", "eval", "inspect", "help", undefined]) {
      expect(flagsFor(command, [100_000])).toEqual([]);
    }
  });

  it("leaves the defaults of a V8 that no longer knows the flag (Node 24 would print an error)", () => {
    const flags: string[] = [];
    tuneV8("search", (text) => flags.push(text), "13.6.233.17-node.37");
    tuneForCatalog(LARGE_CATALOG_TOOLS + 1);
    expect(flags).toEqual([]);
  });
});
