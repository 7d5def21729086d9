import { describe, expect, it } from "vitest";
import {
  ajvRetained,
  COMPILES_PER_AJV,
  checkArguments,
} from "../../src/disclosure/call/validate-arguments.js";
import { createToolSift, type ToolDefinition, validateTools } from "../../src/index.js";

let ran = 0;
function tool(
  name: string,
  inputSchema: Record<string, unknown>,
  handler?: ToolDefinition["handler"],
): ToolDefinition {
  return {
    name,
    description: `${name} tool`,
    inputSchema,
    handler:
      handler ??
      ((args) => {
        ran += 1;
        return args;
      }),
  };
}

async function call(
  tools: ToolDefinition[],
  name: string,
  args: unknown,
  extra: Record<string, unknown> = {},
) {
  const sift = createToolSift({ tools, disclosure: { mode: "off", ...extra } });
  ran = 0;
  const outcome = await sift.execute({ session: "s", name, arguments: args as never });
  const text = outcome.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return { outcome, text, ran };
}

describe("execute answers hostile model input instead of throwing", () => {
  it("a recursive $ref through anyOf", async () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/definitions/n" } },
      definitions: { n: { anyOf: [{ $ref: "#/definitions/n" }, { type: "string" }] } },
    };
    const { outcome, text } = await call([tool("loop", schema)], "loop", { a: "x" });
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("schema_unusable");
    expect(text).toMatch(/^Tool "loop" did not run: its input schema/);
    expect(ran).toBe(0);
  });

  it("arguments 100k levels deep, as JSON text and as an object", async () => {
    const text = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const open = tool("open", { type: "object" });
    const asText = await call([open], "open", text);
    expect(asText.outcome.errorCode).toBe("invalid_arguments");
    expect(asText.text).toMatch(/nested deeper than 100 levels \(MAX_ARGUMENT_DEPTH\)/);
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 100_000; level += 1) deep = { a: deep };
    const recursive = tool("tree", { type: "object", properties: { a: { $ref: "#" } } });
    const asObject = await call([recursive], "tree", deep);
    expect(asObject.outcome.errorCode).toBe("invalid_arguments");
    expect(asObject.ran).toBe(0);
  });

  it("a 100k-property schema handed straight to checkArguments", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100_000 }, (_, index) => [`p${index}`, { type: "string" }]),
    );
    const check = checkArguments(tool("wide", { type: "object", properties }), {});
    expect(check).toMatchObject({ ok: false, code: "schema_unusable" });
    expect(!check.ok && check.message).toMatch(/MAX_PROPERTIES/);
  });

  it("handlers that throw cyclic objects, BigInts, or errors whose message getter throws", async () => {
    const cyclic: Record<string, unknown> = { why: "cyclic" };
    cyclic.self = cyclic;
    const nasty = new Error("x");
    Object.defineProperty(nasty, "message", {
      get() {
        throw new Error("no message for you");
      },
    });
    const throwers: [string, unknown][] = [
      ["cyclic", cyclic],
      ["bigint", 10n ** 30n],
      ["message_getter", nasty],
      [
        "to_string",
        {
          toString: () => {
            throw new Error("no");
          },
          toJSON: () => {
            throw new Error("no");
          },
        },
      ],
    ];
    for (const [name, thrown] of throwers) {
      const { outcome, text } = await call(
        [
          tool(name, { type: "object" }, () => {
            throw thrown;
          }),
        ],
        name,
        {},
      );
      expect(outcome.isError, name).toBe(true);
      expect(text, name).toMatch(new RegExp(`^Tool "${name}" failed: `));
    }
  });

  it("host arguments with throwing getters or toJSON", async () => {
    const getter = {};
    Object.defineProperty(getter, "secret", {
      enumerable: true,
      get() {
        throw new Error("getter exploded");
      },
    });
    const first = await call([tool("host", { type: "object" })], "host", getter);
    expect(first.outcome.errorCode).toBe("invalid_arguments");
    expect(first.text).toMatch(/reading \/secret threw \(getter exploded\)/);
    const withToJSON = {
      value: 1,
      toJSON: () => {
        throw new Error("toJSON exploded");
      },
    };
    const second = await call([tool("host2", { type: "object" })], "host2", withToJSON);
    // it answers (the handler gets the object as given); before, execute could throw here
    expect(second.outcome.tool).toBe("host2");
  });
});

describe("validation fails closed when a schema cannot be compiled", () => {
  const schemas: [string, Record<string, unknown>][] = [
    [
      "remote_ref",
      { type: "object", properties: { amount: { $ref: "https://example.com/amount.json" } } },
    ],
    [
      "bad_pattern",
      {
        type: "object",
        properties: { amount: { type: "number" }, id: { type: "string", pattern: "(unclosed" } },
      },
    ],
    [
      "string_maximum",
      { type: "object", properties: { amount: { type: "number", maximum: "5" } } },
    ],
    [
      "ref_cycle",
      {
        type: "object",
        properties: { amount: { $ref: "#/definitions/a" } },
        definitions: { a: { $ref: "#/definitions/b" }, b: { $ref: "#/definitions/a" } },
      },
    ],
  ];
  for (const [name, schema] of schemas) {
    it(`refuses the call by default: ${name}`, async () => {
      const refused = await call([tool(name, schema)], name, { amount: 1_000_000 });
      expect(refused.ran).toBe(0);
      expect(refused.outcome.errorCode).toBe("schema_unusable");
      expect(refused.text).toMatch(/its input schema cannot be checked/);
      const allowed = await call(
        [tool(name, schema)],
        name,
        { amount: 1 },
        { uncheckedSchemas: "allow" },
      );
      expect(allowed.ran).toBe(1);
    });
  }

  it("a maximum the schema states is enforced (amount 1,000,000 against maximum 100)", async () => {
    const schema = { type: "object", properties: { amount: { type: "number", maximum: 100 } } };
    const { ran: count, outcome } = await call([tool("pay", schema)], "pay", { amount: 1_000_000 });
    expect(count).toBe(0);
    expect(outcome.errorCode).toBe("invalid_arguments");
  });
});

describe("repairs never change values", () => {
  const schema = { type: "object", properties: { id: { type: "integer" }, x: { type: "number" } } };
  const cases: [string, unknown, boolean][] = [
    ["unsafe integer", { id: "9007199254740993" }, false],
    ["overflowing number", { x: "1e999" }, false],
    ["too many digits", { x: "0.12345678901234567891" }, false],
    ["safe integer", { id: "9007199254740991" }, true],
    ["plain decimal", { x: "12.50" }, true],
    ["exponent", { x: "1e5" }, true],
  ];
  for (const [label, args, converts] of cases) {
    it(`${converts ? "converts" : "refuses"} ${label}`, async () => {
      const { outcome, ran: count } = await call([tool("num", schema)], "num", args);
      expect(count).toBe(converts ? 1 : 0);
      expect(outcome.errorCode).toBe(converts ? undefined : "invalid_arguments");
    });
  }

  it("refuses a non-finite number that JSON text produced", async () => {
    const { outcome, text } = await call([tool("num", schema)], "num", '{"x": 1e999}');
    expect(outcome.errorCode).toBe("invalid_arguments");
    expect(text).toMatch(/the number at \/x is Infinity/);
  });
});

describe("compiled validators are freed with their tool", () => {
  it("what Ajv retains stays bounded over 2,000 replacements", async () => {
    const sift = createToolSift({ tools: [] });
    const replace = async (round: number) => {
      sift.catalog.replace(
        tool("replaced", {
          type: "object",
          properties: { field: { type: "string", pattern: `^v${round}$`, maxLength: round } },
        }),
      );
      await sift.execute({ session: "s", name: "replaced", arguments: {} });
    };
    let most = 0;
    for (let round = 0; round < 2_000; round += 1) {
      await replace(round);
      most = Math.max(most, ajvRetained());
    }
    // about three values per compile, for at most COMPILES_PER_AJV compiles of the live
    // instance (one instance kept all 2,000: 6,002 values)
    expect(COMPILES_PER_AJV).toBe(256);
    expect(most).toBeLessThan(1_000);
  });
});

describe("a schema that cannot be checked is named at load time", () => {
  it("validateTools keeps the tool and warns, naming it and the place", () => {
    const { valid, warnings } = validateTools([
      tool("remote_ref", { type: "object", properties: { a: { $ref: "https://x.test/a.json" } } }),
      tool("bad_pattern", { type: "object", properties: { a: { type: "string", pattern: "(x" } } }),
      tool("string_maximum", { type: "object", properties: { a: { maximum: "5" } } }),
      tool("fine", { type: "object", properties: { a: { type: "string", pattern: "^x$" } } }),
    ]);
    expect(valid).toHaveLength(4);
    expect(warnings.map((warning) => [warning.tool, warning.code])).toEqual([
      ["remote_ref", "schema_unchecked"],
      ["bad_pattern", "schema_unchecked"],
      ["string_maximum", "schema_unchecked"],
    ]);
    expect(warnings[0]?.message).toMatch(
      /^Tool "remote_ref": its inputSchema cannot be checked \(\/properties\/a\/\$ref "https:\/\/x.test\/a.json" points outside the schema/,
    );
    expect(warnings[2]?.message).toMatch(/\/properties\/a\/maximum is "5", not a number/);
  });
});
