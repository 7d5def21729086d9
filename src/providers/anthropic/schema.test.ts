import { describe, expect, it } from "vitest";
import { anthropicStrictViolations, anthropicViolations } from "../__tests__/rules.js";
import {
  selectAnthropicStrictTools,
  toAnthropicInputSchema,
  toAnthropicStrictSchema,
} from "./schema.js";

describe("toAnthropicInputSchema", () => {
  it("flattens a root anyOf of required groups and reports the lost choice", () => {
    const result = toAnthropicInputSchema(
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { id: { type: "string" } },
        anyOf: [
          { properties: { a: { type: "string" } }, required: ["a", "id"] },
          { properties: { b: { type: "number" } }, required: ["b", "id"] },
        ],
      },
      { tool: "pick" },
    );
    expect(result.schema).toEqual({
      type: "object",
      properties: { id: { type: "string" }, a: { type: "string" }, b: { type: "number" } },
      required: ["id"],
    });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({
      tool: "pick",
      path: "",
      code: "root_combinator_flattened",
      keyword: "anyOf",
    });
    expect(result.warnings[0]?.message).toContain("required [a, id] | required [b, id]");
    expect(anthropicViolations("pick", result.schema)).toEqual([]);
  });

  it("merges a root allOf, resolving $ref branches", () => {
    const result = toAnthropicInputSchema({
      $defs: { base: { type: "object", properties: { x: { type: "string" } }, required: ["x"] } },
      allOf: [{ $ref: "#/$defs/base" }, { properties: { y: { type: "integer" } } }],
    });
    expect(result.schema.properties).toEqual({ x: { type: "string" }, y: { type: "integer" } });
    expect(result.schema.required).toEqual(["x"]);
    expect(result.schema.type).toBe("object");
  });

  it("replaces a non-object root with an empty object and warns", () => {
    const result = toAnthropicInputSchema({ type: "string" }, { tool: "odd" });
    expect(result.schema).toEqual({ type: "object", properties: {} });
    expect(result.warnings[0]?.code).toBe("root_replaced");
  });
});

describe("toAnthropicStrictSchema", () => {
  it("closes objects and drops bounds with warnings", () => {
    const result = toAnthropicStrictSchema({
      type: "object",
      properties: {
        count: { type: "integer", minimum: 1, maximum: 10 },
        tags: { type: "array", items: { type: "string", maxLength: 5 }, minItems: 2 },
        when: { type: "string", format: "date-time" },
      },
      required: ["count"],
    });
    expect(result.strict).toBe(true);
    if (!result.strict) return;
    expect(result.schema.additionalProperties).toBe(false);
    expect(result.schema.required).toEqual(["count"]);
    const dropped = result.warnings.map((warning) => `${warning.path} ${warning.keyword}`);
    expect(dropped).toEqual(
      expect.arrayContaining([
        "/properties/count/minimum minimum",
        "/properties/tags/minItems minItems",
        "/properties/tags/items/maxLength maxLength",
      ]),
    );
    expect(anthropicStrictViolations("t", result.schema)).toEqual([]);
  });

  it("refuses recursive schemas, maps and free-form objects", () => {
    const recursive = toAnthropicStrictSchema({
      type: "object",
      properties: { node: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } } },
    });
    expect(recursive).toMatchObject({
      strict: false,
      reason: expect.stringContaining("recursive"),
    });
    const map = toAnthropicStrictSchema({
      type: "object",
      properties: { env: { type: "object", additionalProperties: { type: "string" } } },
    });
    expect(map).toMatchObject({ strict: false, reason: expect.stringContaining("map") });
    const free = toAnthropicStrictSchema({
      type: "object",
      properties: { data: { type: "object" } },
    });
    expect(free).toMatchObject({ strict: false, reason: expect.stringContaining("free-form") });
  });
});

describe("selectAnthropicStrictTools", () => {
  const simple = (optional: number) => ({
    type: "object",
    properties: Object.fromEntries(
      Array.from({ length: optional }, (_, index) => [`p${index}`, { type: "string" }]),
    ),
  });

  it("stops at 20 strict tools", () => {
    const tools = Array.from({ length: 25 }, (_, index) => ({
      name: `t${index}`,
      inputSchema: simple(0),
    }));
    const selection = selectAnthropicStrictTools(tools);
    expect(selection.strict).toHaveLength(20);
    expect(selection.rejected.map((entry) => entry.name)).toEqual([
      "t20",
      "t21",
      "t22",
      "t23",
      "t24",
    ]);
    expect(selection.rejected[0]?.reason).toMatch(/20 strict tools/);
  });

  it("keeps the optional-parameter total within 24, in priority order", () => {
    const tools = [
      { name: "a", inputSchema: simple(20) },
      { name: "b", inputSchema: simple(5) },
      { name: "c", inputSchema: simple(4) },
      { name: "d", inputSchema: { type: "object", properties: { x: {} } } },
    ];
    const selection = selectAnthropicStrictTools(tools);
    expect(selection.strict.map((entry) => entry.name)).toEqual(["a", "c"]);
    expect(selection.rejected.map((entry) => entry.name)).toEqual(["b", "d"]);
  });
});
