/**
 * Issue 15's fuzz suite over the public API: hostile catalogs, queries (regex included), call
 * arguments and handler results. Seeded (FUZZ_SEED, default 15) and time-bounded (FUZZ_MS per
 * category, default 2,500 ms). Asserted: no exception escapes a no-throw API (`execute`,
 * `prepare`, `validateTools`; `catalog.add` throws only InvalidToolError), no call takes over
 * 1 s (handlers here return at once, so the time is toolsift's own), and every text that is JSON
 * parses with a strict parser (and holds no lone surrogate). Counts per category are printed.
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

const SEED = Number(process.env.FUZZ_SEED ?? 15);
const BUDGET_MS = Number(process.env.FUZZ_MS ?? 2_500);
const SLOW_MS = 1_000;
// Longest run of one repeated character in generated text. Exact BPE counting is quadratic on
// such runs (issue 15 item 2, fixed separately): 20k characters took 3 s on first count here.
// Raise to 100_000 once that item lands.
const LONG_RUN = 2_000;

interface Counts {
  cases: number;
  escaped: number;
  slow: number;
  badJson: number;
  slowest: number;
}
const report: Record<string, Counts> = {};
// what the current case is, for FUZZ_DEBUG messages
let lastCase = "";

type Random = () => number;
type Handler = NonNullable<ToolDefinition["handler"]>;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
const int = (random: Random, max: number) => Math.floor(random() * max);

// ---- generators -------------------------------------------------------------------------------

const NAME_PARTS = ["read", "write", "delete", "file", "repo", "issue", "DELETE", "x"];
const HOSTILE_CHARS = ["\u200b", "\u202e", "\u0456", "\uff52", "\u0000", " ", "😀", "\ud800", "é"];

function hostileName(random: Random): string {
  let name = `${pick(random, NAME_PARTS)}_${pick(random, NAME_PARTS)}`;
  if (random() < 0.3) {
    const at = int(random, name.length);
    name = `${name.slice(0, at)}${pick(random, HOSTILE_CHARS)}${name.slice(at)}`;
  }
  if (random() < 0.05) name = "x".repeat(int(random, 400));
  return name;
}

function nest(depth: number, key: "properties" | "items" | "anyOf"): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let level = 0; level < depth; level += 1) {
    schema =
      key === "properties"
        ? { type: "object", properties: { n: schema } }
        : key === "items"
          ? { type: "array", items: schema }
          : { anyOf: [schema, { type: "null" }] };
  }
  return schema;
}

function hostileSchema(random: Random): unknown {
  const kind = int(random, 14);
  const wrap = (inner: unknown) => ({ type: "object", properties: { a: inner } });
  switch (kind) {
    case 0:
      return wrap(
        nest(int(random, 4_000), pick(random, ["properties", "items", "anyOf"] as const)),
      );
    case 1:
      return wrap({ enum: Array.from({ length: int(random, 5_000) }, (_, i) => i) });
    case 2:
      return {
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: int(random, 3_000) }, (_, i) => [`p${i}`, { type: "string" }]),
        ),
      };
    case 3: {
      const cyclic: Record<string, unknown> = { type: "object", properties: {} };
      (cyclic.properties as Record<string, unknown>).self = cyclic;
      return cyclic;
    }
    case 4:
      return wrap({
        $ref: pick(random, ["#", "#/nowhere", "https://x.test/s.json", "#/definitions/a"]),
      });
    case 5:
      return {
        type: "object",
        properties: { a: { $ref: "#/definitions/n" } },
        definitions: { n: { anyOf: [{ $ref: "#/definitions/n" }, { type: "string" }] } },
      };
    case 6:
      return wrap({ type: "string", pattern: pick(random, ["(unclosed", "^a+$", "[", "\\p{L}+"]) });
    case 7:
      return wrap({ type: "number", maximum: pick(random, ["5", 5, null, Number.NaN, 1e308]) });
    case 8:
      return pick(random, [null, [], "object", 5, { type: "array" }, { type: ["object"] }]);
    case 9:
      return wrap({ type: pick(random, ["integer", "number", "boolean", "strnig", 7]) });
    case 10:
      return { type: "object", required: pick(random, [["a"], "a", [1], true]) };
    default:
      return wrap({
        type: pick(random, ["string", "integer", "number", "boolean", "array", "object"]),
      });
  }
}

function hostileTool(random: Random, handler: Handler): unknown {
  const tool: Record<string, unknown> = {
    name: hostileName(random),
    description: random() < 0.1 ? "=".repeat(int(random, LONG_RUN)) : "A tool for fuzzing.",
    inputSchema: hostileSchema(random),
    handler,
  };
  if (random() < 0.2) tool.server = pick(random, ["github", "fs", "GitHub", ""]);
  return tool;
}

const NUMERALS = [
  "9007199254740993",
  "1e999",
  "-1e999",
  "NaN",
  "0x10",
  " 5 ",
  "1.0000000000000000001",
  "12",
];

function hostileValue(random: Random, depth = 0): unknown {
  const kind = int(random, depth > 3 ? 6 : 10);
  switch (kind) {
    case 0:
      return pick(random, NUMERALS);
    case 1:
      return pick(random, [0, -0, 1e308, Number.MAX_SAFE_INTEGER + 2, 3.5]);
    case 2:
      return pick(random, [true, false, null, "true", "null", "[1,2]", '{"a":1}']);
    case 3:
      return "😀".repeat(int(random, 50));
    case 4:
      return pick(random, ["", "x".repeat(int(random, LONG_RUN)), "\u202eevil"]);
    case 5:
      return int(random, 100);
    case 6:
      return Array.from({ length: int(random, 5) }, () => hostileValue(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let index = int(random, 5); index > 0; index -= 1) {
        object[pick(random, ["a", "n", "amount", "__proto__", "constructor", "arguments"])] =
          hostileValue(random, depth + 1);
      }
      return object;
    }
  }
}

function hostileArguments(random: Random): unknown {
  const kind = int(random, 8);
  if (kind === 0) {
    const depth = int(random, 120_000);
    return `${'{"n":'.repeat(depth)}1${"}".repeat(depth)}`;
  }
  if (kind === 1) return pick(random, ['{"a": 1e999}', '{"a":', "[]", "null", "  ", '"str"']);
  if (kind === 2) {
    const object = { a: 1 };
    Object.defineProperty(object, "b", {
      enumerable: true,
      get() {
        throw new Error("getter");
      },
    });
    return object;
  }
  if (kind === 3) return JSON.parse('{"__proto__": {"force": true}, "a": "x"}');
  return hostileValue(random);
}

function hostileResult(random: Random): unknown {
  const kind = int(random, 12);
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const badMessage = new Error("m");
  Object.defineProperty(badMessage, "message", {
    get() {
      throw new Error("message getter");
    },
  });
  const throwing = {
    toJSON() {
      throw new Error("toJSON");
    },
  };
  const values: unknown[] = [
    cyclic,
    10n ** 20n,
    throwing,
    { content: [{ type: "text", text: cyclic }] },
    { content: [{ type: "text", text: "ok" }], structuredContent: cyclic },
    { content: "not an array" },
    "😀".repeat(int(random, 3_000)),
    "=".repeat(int(random, LONG_RUN)),
    Symbol("s"),
    () => 1,
    undefined,
    hostileValue(random),
  ];
  const value = values[kind];
  if (random() < 0.3)
    return { throws: pick(random, [cyclic, 5n, badMessage, throwing, undefined, "str"]) };
  return { value };
}

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
  const counts: Counts = { cases: 0, escaped: 0, slow: 0, badJson: 0, slowest: 0 };
  // one warm-up case, not counted: the first call loads tokenizer tables and compiles code
  try {
    await run(seededRandom(SEED), { ...counts });
  } catch {
    // counted below when it recurs
  }
  const started = performance.now();
  while (performance.now() - started < BUDGET_MS) {
    const begin = performance.now();
    try {
      await run(random, counts);
    } catch (error) {
      counts.escaped += 1;
      if (counts.escaped <= 3) console.error(`${category}: escaped`, error);
    }
    const took = performance.now() - begin;
    if (took > SLOW_MS / 2 && process.env.FUZZ_DEBUG)
      console.error(`${category}: slow case #${counts.cases} (${Math.round(took)} ms)`, lastCase);
    counts.slowest = Math.max(counts.slowest, took);
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
  console.log(`fuzz seed ${SEED}, ${BUDGET_MS} ms per category`);
  console.table(
    Object.fromEntries(
      Object.entries(report).map(([name, c]) => [name, { ...c, slowest: Math.round(c.slowest) }]),
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
