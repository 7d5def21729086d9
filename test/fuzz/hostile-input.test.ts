/**
 * Issue 15's fuzz suite over the public API: hostile catalogs, queries (regex included), call
 * arguments and handler results. Seeded (FUZZ_SEED, default 15) and bounded by CPU time
 * (FUZZ_MS per category, default 2,500 ms of this process's CPU, so a loaded machine runs as
 * many cases, only slower). Asserted: no exception escapes a no-throw API (`execute`, `prepare`,
 * `validateTools`; `catalog.add` throws only InvalidToolError), no case costs over 1 s of CPU
 * (handlers here return at once, so the cost is toolsift's own; CPU time, unlike wall time, is
 * not stretched by other processes), and every text that is JSON parses with a strict parser
 * (and holds no lone surrogate). Counts and the slowest case (CPU and wall ms) are printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../bench/synthetic.js";
import {
  createCatalog,
  createToolSift,
  InvalidToolError,
  type ToolDefinition,
  validateTools,
} from "../../src/index.js";
import { cpuMsAsync } from "../cpu-time.js";
import {
  type Handler,
  hostileArguments,
  hostileResult,
  hostileTool,
  int,
  NAME_PARTS,
  pick,
  type Random,
} from "./hostile-generators.js";

const SEED = Number(process.env.FUZZ_SEED ?? 15);
const BUDGET_MS = Number(process.env.FUZZ_MS ?? 2_500);
/** CPU ms one case may cost. */
const SLOW_MS = 1_000;

interface Counts {
  cases: number;
  escaped: number;
  slow: number;
  badJson: number;
  /** The most CPU ms one case cost. */
  slowest: number;
  /** The most wall ms one case took: printed only, as it depends on the machine's load. */
  slowestWall: number;
}
const report: Record<string, Counts> = {};
// what the current case is, for FUZZ_DEBUG messages
let lastCase = "";

// ---- checks -----------------------------------------------------------------------------------

function textsOf(outcome: { content: readonly { type: string; text?: unknown }[] }): string[] {
  return outcome.content.flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// strict: JSON.parse, and no lone surrogate anywhere (a strict parser rejects `\ud83d` alone)
function strictJsonOk(text: string): boolean {
  const ok = strictJson(text);
  if (!ok && process.env.FUZZ_DEBUG)
    console.error("not strict JSON:", JSON.stringify(text.slice(0, 300)), text.length);
  return ok;
}

function strictJson(text: string): boolean {
  if (LONE_SURROGATE.test(text)) return false;
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return true;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    // a text that only starts like JSON (prose after a list) is not claimed to be JSON
    return !/^[[{][\s\S]*[\]}]$/.test(trimmed);
  }
}

async function fuzz(
  category: string,
  run: (random: Random, counts: Counts) => Promise<void> | void,
): Promise<Counts> {
  const random = seededRandom(SEED + category.length * 7919);
  const counts: Counts = { cases: 0, escaped: 0, slow: 0, badJson: 0, slowest: 0, slowestWall: 0 };
  // one warm-up case, not counted: the first call loads tokenizer tables and compiles code
  try {
    await run(seededRandom(SEED), { ...counts });
  } catch {
    // counted below when it recurs
  }
  let spent = 0;
  while (spent < BUDGET_MS) {
    const begin = performance.now();
    const { ms: took } = await cpuMsAsync(async () => {
      try {
        await run(random, counts);
      } catch (error) {
        counts.escaped += 1;
        if (counts.escaped <= 3) console.error(`${category}: escaped`, error);
      }
    });
    spent += took;
    if (took > SLOW_MS / 2 && process.env.FUZZ_DEBUG)
      console.error(`${category}: slow case #${counts.cases} (${Math.round(took)} ms)`, lastCase);
    counts.slowest = Math.max(counts.slowest, took);
    counts.slowestWall = Math.max(counts.slowestWall, performance.now() - begin);
    if (took > SLOW_MS) counts.slow += 1;
    counts.cases += 1;
  }
  report[category] = counts;
  return counts;
}

function describeCase(first: unknown, second: unknown): string {
  const show = (value: unknown) => {
    try {
      return String(JSON.stringify(value)).slice(0, 80);
    } catch {
      return typeof value;
    }
  };
  return `${show(first)} / ${typeof second === "string" ? second.slice(0, 40) : show(second)}`;
}

const handlerFor =
  (plan: unknown): Handler =>
  () => {
    const { throws, value } = plan as { throws?: unknown; value?: unknown };
    if ("throws" in (plan as object)) throw throws;
    return value as never;
  };

afterAll(() => {
  console.log(`fuzz seed ${SEED}, ${BUDGET_MS} CPU ms per category; slowest case in ms`);
  console.table(
    Object.fromEntries(
      Object.entries(report).map(([name, c]) => [
        name,
        { ...c, slowest: Math.round(c.slowest), slowestWall: Math.round(c.slowestWall) },
      ]),
    ),
  );
});

describe("fuzz: hostile input through the public API", () => {
  it("catalogs with hostile schemas and names", async () => {
    const counts = await fuzz("catalogs", (random, c) => {
      const batch = Array.from({ length: 1 + int(random, 4) }, () =>
        hostileTool(random, () => "ok"),
      );
      validateTools(batch, { nameRule: "lenient" });
      const { valid } = validateTools(batch);
      try {
        createCatalog().add(batch as ToolDefinition[]);
      } catch (error) {
        if (!(error instanceof InvalidToolError)) throw error;
      }
      const sift = createToolSift({ tools: valid });
      const plan = sift.prepare({ session: "f", contextWindow: 200_000 });
      if (!strictJsonOk(JSON.stringify(plan.loaded.map((view) => view.name)))) c.badJson += 1;
      const models = [
        ["anthropic", "claude-sonnet-4-6"],
        ["openai-chat", "gpt-4.1"],
        ["openai-responses", "gpt-5"],
        ["gemini", "gemini-2.5-pro"],
      ];
      for (const [provider, model] of models) {
        const turn = sift.prepare({ session: "f", provider, model } as never);
        if (!strictJsonOk(JSON.stringify(turn))) c.badJson += 1;
      }
    });
    expect(counts).toMatchObject({ escaped: 0, slow: 0, badJson: 0 });
  });

  it("queries, regex included, through tool_search and search", async () => {
    const tools = Array.from({ length: 300 }, (_, i) => ({
      name: `tool_${i}_${pick(seededRandom(i), NAME_PARTS)}`,
      description: `Does thing ${i} with ${"words ".repeat(i % 40)}`,
      inputSchema: { type: "object" as const },
      server: `server${i % 7}`,
    }));
    const sift = createToolSift({ tools });
    const atoms = [
      "a",
      ".",
      ".*",
      "\\w",
      "[a-z]",
      "(x|y)",
      "tool",
      "_",
      "😀",
      "\\p{L}",
      "(?i)",
      "$",
      "^",
    ];
    const quantifiers = ["", "*", "+", "?", "{0,1000}", "{2,5}", "{1000}", "{0,100}"];
    const counts = await fuzz("queries", async (random, c) => {
      let pattern = "";
      for (let index = int(random, 8); index >= 0; index -= 1) {
        pattern += pick(random, atoms) + pick(random, quantifiers);
        if (random() < 0.1) pattern = `(${pattern})${pick(random, quantifiers)}`;
      }
      const query = pick(random, [
        `/${pattern}/`,
        `-${pick(random, NAME_PARTS)} -does -thing -words -tool`,
        `server:${pick(random, ["server1", "nope"])} ${pattern}`,
        pattern,
        "",
        "select:tool_1_read,nope",
      ]);
      try {
        sift.search(query);
      } catch (error) {
        if (!(error instanceof Error && "code" in error)) throw error;
      }
      const outcome = await sift.execute({
        session: "f",
        name: sift.disclosure.metaToolNames.search,
        // whole code points: a lone surrogate sent by the model is echoed back as sent
        arguments: { queries: [query, Array.from(query).slice(0, 5).join("")] },
      });
      for (const text of textsOf(outcome)) if (!strictJsonOk(text)) c.badJson += 1;
    });
    expect(counts).toMatchObject({ escaped: 0, slow: 0, badJson: 0 });
  });

  it("call arguments against hostile schemas", async () => {
    const counts = await fuzz("arguments", async (random, c) => {
      const tool = hostileTool(random, (args: unknown) => args as never) as Record<string, unknown>;
      tool.name = "target";
      const args = hostileArguments(random);
      if (process.env.FUZZ_DEBUG) lastCase = describeCase(tool.inputSchema, args);
      const { valid } = validateTools([tool]);
      const sift = createToolSift({ tools: valid.length > 0 ? valid : [] });
      const outcome = await sift.execute({
        session: "f",
        name: random() < 0.2 ? sift.disclosure.metaToolNames.call : "target",
        arguments: args as never,
      });
      for (const text of textsOf(outcome)) if (!strictJsonOk(text)) c.badJson += 1;
    });
    expect(counts).toMatchObject({ escaped: 0, slow: 0, badJson: 0 });
  });

  it("handler results and thrown values", async () => {
    const counts = await fuzz("results", async (random, c) => {
      const plan = hostileResult(random);
      if (process.env.FUZZ_DEBUG) lastCase = describeCase(plan, undefined);
      const sift = createToolSift({
        tools: [
          {
            name: "h",
            description: "d",
            inputSchema: { type: "object" },
            handler: handlerFor(plan),
          },
        ],
      });
      const outcome = await sift.execute({
        session: "f",
        name: "h",
        arguments: {},
        timeoutMs: 1_000,
      });
      for (const text of textsOf(outcome)) if (!strictJsonOk(text)) c.badJson += 1;
    });
    expect(counts).toMatchObject({ escaped: 0, slow: 0, badJson: 0 });
  });
});
