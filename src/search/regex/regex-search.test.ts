import path from "node:path";
import { describe, expect, it } from "vitest";
import { cpuMs } from "../../../test/cpu-time.js";
import { sharedDir } from "../../../test/shared-dir.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { loadCatalogPaths } from "../../catalog/node.js";
import { isToolsiftError } from "../../errors.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import {
  compileRegex,
  MAX_REGEX_PROGRAM,
  MAX_REGEX_REPEAT,
  MAX_REGEX_WORK,
  testWithinBudget,
} from "./regex-search.js";

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isToolsiftError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return "accepted";
}

async function realIndex(): Promise<ToolSearchIndex> {
  const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    duplicates: "qualify",
  });
  const index = new ToolSearchIndex();
  index.addAll(tools);
  return index;
}

describe("regex cost limits", () => {
  it("rejects the 48-character pattern that stalled for 45 s, naming the limit, in milliseconds", async () => {
    const index = await realIndex();
    let answer = "";
    const rejectMs = cpuMs(() => {
      answer = rejection(() => index.search("/.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}z/"));
    });
    // a CPU guard only: the rejection happens before compiling
    expect(rejectMs).toBeLessThan(1_000);
    expect(answer).toMatch(/^invalid_regex: .*add up to 5000.*limit is 250 \(MAX_REGEX_REPEAT\)/);
  });

  it("still answers ordinary patterns over the real tools", async () => {
    const index = await realIndex();
    expect(index.search("/create.*issue/").hits.length).toBeGreaterThan(0);
    expect(index.search("/^browser_(click|type)$/").hits.map((hit) => hit.name)).toContain(
      "browser_click",
    );
  });

  it("counts repetitions outside classes and escapes only", () => {
    expect(rejection(() => compileRegex(`a{0,${MAX_REGEX_REPEAT}}`))).toBe("accepted");
    expect(rejection(() => compileRegex(`a{${MAX_REGEX_REPEAT + 1}}`))).toMatch(/MAX_REGEX_REPEAT/);
    expect(rejection(() => compileRegex("[{9999}]\\p{Greek}x"))).toBe("accepted");
  });

  it("rejects patterns that compile too large even with small counts", () => {
    // nested counts multiply: 20 copies of 20 optional characters
    const answer = rejection(() => compileRegex("(?:.{0,20}x){0,20}"));
    expect(answer).toMatch(/compiles to \d+ instructions; the limit is 600/);
    expect(MAX_REGEX_PROGRAM).toBe(600);
  });

  it("stops a query once its work budget (instructions × characters) is spent", () => {
    const regex = compileRegex(".{0,200}q");
    const text = "x".repeat(2_000);
    let tests = 0;
    const answer = rejection(() => {
      for (;;) {
        testWithinBudget(regex, text);
        tests += 1;
      }
    });
    expect(answer).toMatch(/MAX_REGEX_WORK/);
    const size = MAX_REGEX_WORK / tests / 2_001;
    expect(size).toBeGreaterThan(300);
    expect(size).toBeLessThan(MAX_REGEX_PROGRAM + 1);
  });

  it("gives each compiled query its own budget", () => {
    const tool = { name: "t", description: "x".repeat(2_000), inputSchema: { type: "object" } };
    const index = new ToolSearchIndex();
    index.addAll([tool as ToolDefinition]);
    for (let round = 0; round < 3; round += 1) expect(index.search("/.{0,200}q/").hits).toEqual([]);
  });
});
