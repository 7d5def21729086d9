/** Generators of hostile input for the issue 15 fuzz suite (hostile-input.test.ts). */
import type { ToolDefinition } from "../../src/index.js";

// Longest run of one repeated character in generated text. Exact BPE counting is quadratic on
// such runs (issue 15 item 2, fixed separately): 20k characters took 3 s on first count here.
// Raise to 100_000 once that item lands.
const LONG_RUN = 2_000;

export type Random = () => number;
export type Handler = NonNullable<ToolDefinition["handler"]>;
export const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
export const int = (random: Random, max: number) => Math.floor(random() * max);

export const NAME_PARTS = ["read", "write", "delete", "file", "repo", "issue", "DELETE", "x"];
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

export function hostileTool(random: Random, handler: Handler): unknown {
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

export function hostileArguments(random: Random): unknown {
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

export function hostileResult(random: Random): unknown {
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
