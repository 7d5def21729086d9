/**
 * Hostile-input paths of issue 15 at 1,371 real tools and 100k synthetic tools: a pathological
 * regex, a browse query excluding everything, unknown names, the first prepare, first-call schema
 * compiles, and the heap after 5,000 schema replacements. `npx tsx bench/hostile-input.ts`
 * (`-- --quick` skips the 100k catalog). Each figure is the time toolsift takes to answer
 * (reject or finish), in ms.
 */
import type { ToolDefinition } from "../src/catalog/index.js";
import { createToolSift } from "../src/index.js";
import { suggestNames } from "../src/internal/index.js";
import { extractFieldTexts } from "../src/search/store/fields.js";
import { tokenize } from "../src/text/index.js";
import { loadRealCatalogs } from "./real-catalogs.js";
import { syntheticTools } from "./synthetic.js";

const HOSTILE_REGEX = "/.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}z/";

function time(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

async function timeAsync(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function safely(run: () => unknown): () => unknown {
  return () => {
    try {
      run();
    } catch {
      // a rejection is an answer: the time to give it is what is measured
    }
  };
}

/** A browse query (only `-word`s) whose words, taken together, exclude every tool. */
function excludingEverything(tools: readonly ToolDefinition[]): string {
  let left = tools.map((tool) => new Set(tokenize(extractFieldTexts(tool).join(" "))));
  const words: string[] = [];
  while (left.length > 0 && words.length < 60) {
    const counts = new Map<string, number>();
    for (const set of left) for (const word of set) counts.set(word, (counts.get(word) ?? 0) + 1);
    const best = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (best === undefined) break;
    words.push(best);
    left = left.filter((set) => !set.has(best));
  }
  return words.map((word) => `-${word}`).join(" ");
}

/** The figures for one catalog. */
async function measure(label: string, tools: ToolDefinition[]): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  let sift = createToolSift({ tools: [] });
  // index build apart from the first prepare: the prepare figure is disclosure's own work
  figures["create (catalog + index build)"] = time(() => {
    sift = createToolSift({ tools });
  });
  const turn = { session: "bench", contextWindow: 200_000 };
  figures["first prepare"] = time(() => sift.prepare(turn));
  // the starting commit took ~30 ms per tool for this pattern: `--regex-all` runs it over all
  const regexTools = process.argv.includes("--regex-all") ? tools : tools.slice(0, 100);
  const regexSift = createToolSift({ tools: regexTools });
  figures[`regex ${HOSTILE_REGEX} (${regexTools.length} tools)`] = time(
    safely(() => regexSift.search(HOSTILE_REGEX)),
  );
  figures["regex /create.*issue/"] = time(safely(() => sift.search("/create.*issue/")));
  const browse = excludingEverything(tools);
  figures[`browse excluding everything (${browse.split(" ").length} words)`] = time(() =>
    sift.search(browse),
  );
  const names = sift.disclosure.metaToolNames;
  figures["execute: unknown tool name"] = await timeAsync(() =>
    sift.execute({ session: "bench", name: "definitely_not_a_real_tool_name", arguments: {} }),
  );
  const unknown = Array.from({ length: 10 }, (_, i) => `no_such_tool_number_${i}`);
  // tool_describe is offered in bridge mode (reveal mode answers it as an unknown tool)
  const bridge = createToolSift({ tools, disclosure: { strategy: "bridge" } });
  bridge.prepare(turn);
  const describe = (asked: string[]) =>
    bridge.execute({ session: "bench", name: names.describe, arguments: { names: asked } });
  figures["tool_describe: first unknown name (builds the name index)"] = await timeAsync(() =>
    describe(["no_such_tool_at_all"]),
  );
  const answer = await describe(unknown.slice(0, 1));
  if (!JSON.stringify(answer.content).includes("no_such_tool_number_0"))
    throw new Error(`tool_describe did not answer: ${JSON.stringify(answer.content)}`);
  figures["tool_describe: 10 unknown names"] = await timeAsync(() => describe(unknown));
  // the same ten names scored against every name, as before the index: the comparison
  const allNames = tools.map((tool) => tool.name);
  figures["did-you-mean for 10 names by scanning every name (no index)"] = time(() => {
    for (const name of unknown) suggestNames(name, allNames);
  });
  console.log(`\n## Hostile input: ${label}\n`);
  console.log("| measure | ms |\n| --- | --- |");
  for (const [name, value] of Object.entries(figures))
    console.log(`| ${name} | ${value.toFixed(1)} |`);
  return figures;
}

function schemaTool(name: string, inputSchema: Record<string, unknown>): ToolDefinition {
  return { name, description: "bench", inputSchema, handler: () => "ok" } as ToolDefinition;
}

/** First-call compile of large schemas, and heap growth over 5,000 replacements. */
async function measureSchemas(): Promise<void> {
  const figures: Record<string, number> = {};
  const values = (count: number) => Array.from({ length: count }, (_, i) => `value_${i}`);
  const wide = (count: number) =>
    Object.fromEntries(values(count).map((name) => [name, { type: "string" }]));
  const cases: [string, Record<string, unknown>][] = [
    ["20k-value enum", { type: "object", properties: { v: { enum: values(20_000) } } }],
    ["20k properties", { type: "object", properties: wide(20_000) }],
    ["2k-value enum (the limit)", { type: "object", properties: { v: { enum: values(2_000) } } }],
    ["1k properties (the limit)", { type: "object", properties: wide(1_000) }],
  ];
  // Ajv's instance and formats are built on the first compile in a process: paid here, not below
  const warm = createToolSift({ tools: [schemaTool("warm", { type: "object" })] });
  await warm.execute({ session: "bench", name: "warm", arguments: {} });
  for (const [label, schema] of cases) {
    figures[`load + first call, ${label}`] = await timeAsync(async () => {
      try {
        const sift = createToolSift({ tools: [schemaTool("big", schema)] });
        await sift.execute({ session: "bench", name: "big", arguments: { v: "value_1" } });
      } catch {
        // refused at load: the time to refuse is the figure
      }
    });
  }
  for (const [label, count] of [
    ["100k properties", 100_000],
    ["1k properties (the limit)", 1_000],
  ] as const) {
    figures[`load + OpenAI strict prepare, ${label}`] = time(() => {
      try {
        const sift = createToolSift({
          tools: [
            { ...schemaTool("wide", { type: "object", properties: wide(count) }), server: "s" },
          ],
        });
        sift.prepare({
          session: "bench",
          provider: "openai-chat",
          model: "gpt-4.1",
          format: { strict: true },
        });
      } catch {
        // refused at load
      }
    });
  }
  const sift = createToolSift({ tools: [] });
  // the same property name each round: new words would grow the search vocabulary, which is
  // not what this measures
  const replaceOnce = async (round: number) => {
    const schema = {
      type: "object",
      properties: { field: { type: "string", pattern: `^v${round}$`, maxLength: round } },
    };
    sift.catalog.replace(schemaTool("replaced", schema));
    await sift.execute({ session: "bench", name: "replaced", arguments: {} });
  };
  for (let round = 0; round < 200; round++) await replaceOnce(round);
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let round = 200; round < 5_200; round++) await replaceOnce(round);
  global.gc?.();
  figures["heap growth over 5,000 replacements (MB; run with --expose-gc)"] =
    (process.memoryUsage().heapUsed - before) / 1e6;
  console.log("\n## Hostile input: schemas\n");
  console.log("| measure | value |\n| --- | --- |");
  for (const [name, value] of Object.entries(figures))
    console.log(`| ${name} | ${value.toFixed(1)} |`);
}

const quick = process.argv.includes("--quick");
console.log(`# hostile-input bench (node ${process.version}, ${new Date().toISOString()})`);
await measureSchemas();
await measure("1,371 real tools", await loadRealCatalogs());
if (!quick) await measure("100k synthetic tools", syntheticTools(100_000));
