/**
 * Hostile-input benchmark (issue 15, items 2, 16, 17, 19): work toolsift does on inputs built to
 * be slow — long pre-tokenizer pieces, 50 MB results, thousands of blocks, huge reveal lists —
 * each against an in-process comparison (the unsplit gpt-tokenizer count on a 1/8 slice, whose
 * quadratic cost is scaled ×64 to the full size; raw counting of the same real catalog text).
 * The one tool-count dependent line (first prepare) runs at the 1,371 real tools.
 * Run alone: `npx tsx bench/hostile-input.bench.ts` (or `npm run bench -- hostile`).
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { countTokens as rawO200k } from "gpt-tokenizer/encoding/o200k_base";
import { applyResultBudget, createSpillStore, truncateResult } from "../src/budget/index.js";
import type { ToolDefinition } from "../src/catalog/index.js";
import { createToolSift } from "../src/create-toolsift.js";
import { createMemoryRevealStore } from "../src/disclosure/index.js";
import { o200kCounter } from "../src/tokens/index.js";
import { sharedDir } from "../test/shared-dir.js";

const plain = { disallowedSpecial: new Set<string>() };

function time(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

async function timeAsync(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

function realTools(): ToolDefinition[] {
  const dir = path.join(sharedDir(), "catalogs");
  const tools: ToolDefinition[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
    const server = file.replace(/\.json$/, "");
    for (const tool of JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ToolDefinition[]) {
      tools.push({ ...tool, name: `${server}__${tool.name}`.slice(0, 120), server });
    }
  }
  return tools;
}

/** Runs the benchmark and returns its figures (ms and ratios). */
export async function runHostileInputBench(): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  o200kCounter.count("warm up");
  const hostile: [string, string][] = [
    ["64k A", "A".repeat(64_000)],
    ["64k spaces", " ".repeat(64_000)],
    ["32k ab", "ab".repeat(32_000)],
    ["100k =", "=".repeat(100_000)],
    ["100k lone surrogates", "\ud800".repeat(100_000)],
  ];
  for (const [label, text] of hostile) {
    const now = time(() => o200kCounter.count(text));
    const slice = text.slice(0, text.length / 8);
    const projected = time(() => rawO200k(slice, plain)) * 64; // quadratic: 8× longer, 64× slower
    figures[`count ${label} ms`] = now;
    figures[`count ${label}: unsplit (1/8 slice ×64) / now`] = projected / Math.max(now, 0.01);
  }
  figures["truncateResult 100k A → 2k ms"] = time(() =>
    truncateResult("A".repeat(100_000), { maxTokens: 2_000 }),
  );

  const tool = { name: "bench" };
  const huge = "The quick brown fox jumps over the lazy dog 1234. ".repeat(1_000_000);
  figures["applyResultBudget 50 MB text → 2k ms"] = await timeAsync(() =>
    applyResultBudget(huge, { tool }),
  );
  figures["applyResultBudget 50 MB text → 2k with spill (32 MiB store) ms"] = await timeAsync(() =>
    applyResultBudget(huge, { tool, spill: createSpillStore() }),
  );
  figures["applyResultBudget 50 MB MCP text block → 2k ms"] = await timeAsync(() =>
    applyResultBudget({ content: [{ type: "text", text: huge }] }, { tool }),
  );
  const rows = Array.from({ length: 100_000 }, (_, id) => ({
    id,
    name: `item ${id}`,
    tags: ["a"],
  }));
  const stringify = time(() => JSON.stringify(rows));
  const rowsMs = await timeAsync(() => applyResultBudget(rows, { tool }));
  figures["applyResultBudget 4 MB JSON value → 2k ms"] = rowsMs;
  figures["applyResultBudget 4 MB JSON value / JSON.stringify"] =
    rowsMs / Math.max(stringify, 0.01);
  const blocks = Array.from({ length: 5_000 }, (_, index) => ({
    type: "text" as const,
    text: `row ${index}: ok`,
  }));
  figures["applyResultBudget 5,000 text blocks → 2k ms"] = await timeAsync(() =>
    applyResultBudget({ content: blocks }, { tool }),
  );

  // real catalogs: the split counter against gpt-tokenizer's own count of the same text
  const tools = realTools();
  const texts = tools.map((item) => JSON.stringify(item));
  let split = 0;
  let raw = 0;
  const splitMs = time(() => {
    for (const text of texts) split += o200kCounter.count(text);
  });
  const rawMs = time(() => {
    for (const text of texts) raw += rawO200k(text, plain);
  });
  figures["1.4k real tools: token sum difference (split − unsplit)"] = split - raw;
  figures["1.4k real tools: count time split / unsplit"] = splitMs / Math.max(rawMs, 0.01);

  // the first prepare counts every definition: one hostile description against none (1.4k tools;
  // at 100k tools the first prepare is dominated by index building, measured in bench/disclosure)
  const hostileTool: ToolDefinition = {
    name: "zz_hostile",
    // from a server like the rest: a host tool would be loaded rather than deferred
    server: "hostile",
    description: "=".repeat(100_000),
    inputSchema: { type: "object" },
  };
  const firstPrepare = (list: ToolDefinition[]) => {
    const sift = createToolSift({ tools: list, disclosure: { mode: "on" } });
    return time(() => sift.prepare({ session: "s", contextWindow: 200_000 }));
  };
  const clean = firstPrepare(tools);
  const withHostile = firstPrepare([...tools, hostileTool]);
  figures["1.4k tools: first prepare ms"] = clean;
  figures["1.4k tools + one 100k '=' description: first prepare ms"] = withHostile;

  const sift = createToolSift({
    tools: [
      {
        name: "dump",
        description: "Dump.",
        inputSchema: { type: "object" },
        handler: () => "=".repeat(60_000),
      },
    ],
    disclosure: { mode: "off" },
  });
  figures["execute: handler returns 60k '=' (timeoutMs 1000) ms"] = await timeAsync(() =>
    sift.execute({ session: "s", name: "dump", arguments: {}, timeoutMs: 1_000 }),
  );

  const names = Array.from({ length: 60_000 }, (_, index) => `tool_${index}`);
  const store = createMemoryRevealStore({ maxToolsPerSession: 100_000 });
  figures["reveal store: reveal 50k names ms"] = time(() =>
    store.reveal("a", names.slice(0, 50_000)),
  );
  store.reveal("a", names);
  const snapshot = store.export();
  figures["reveal store: import 60k names ms"] = time(() =>
    createMemoryRevealStore({ maxToolsPerSession: 100_000 }).import(snapshot),
  );
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await runHostileInputBench();
  console.table(
    Object.entries(figures).map(([name, value]) => ({ name, value: Number(value.toFixed(3)) })),
  );
}
