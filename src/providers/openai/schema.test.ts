import { describe, expect, it } from "vitest";
import { openAIStrictViolations, openAIViolations } from "../__tests__/rules.js";
import {
  restoreOpenAIStrictArguments,
  toOpenAIParameters,
  toOpenAIStrictSchema,
} from "./schema.js";
import { checkOpenAIStrictLimits } from "./strict-limits.js";

const schema = {
  type: "object",
  properties: {
    owner: { type: "string", minLength: 1 },
    state: { type: "string", enum: ["open", "closed"], default: "open" },
    labels: { type: "array", items: { type: "string" } },
    since: { type: ["string", "null"], format: "date-time" },
    filter: { $ref: "#/$defs/filter" },
    mode: { const: "fast" },
  },
  required: ["owner"],
  $defs: { filter: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
};

describe("toOpenAIParameters", () => {
  it("removes root enum/not and root unions", () => {
    const result = toOpenAIParameters({
      type: "object",
      properties: {},
      not: { required: ["x"] },
      oneOf: [{ required: ["a"] }, { required: ["b"] }],
    });
    expect(result.schema).toEqual({ type: "object", properties: {} });
    expect(result.warnings.map((warning) => warning.keyword)).toEqual(["oneOf", "not"]);
    expect(openAIViolations("ok", result.schema)).toEqual([]);
  });
});

describe("toOpenAIStrictSchema", () => {
  it("requires every property and makes optional ones nullable", () => {
    const result = toOpenAIStrictSchema(schema, { tool: "list_issues" });
    expect(result.strict).toBe(true);
    if (!result.strict) return;
    const properties = result.schema.properties as Record<string, Record<string, unknown>>;
    expect(result.schema.required).toEqual(["owner", "state", "labels", "since", "filter", "mode"]);
    expect(properties.owner).toEqual({ type: "string" });
    expect(properties.state).toEqual({ type: ["string", "null"], enum: ["open", "closed", null] });
    expect(properties.labels).toEqual({ type: ["array", "null"], items: { type: "string" } });
    expect(properties.since).toEqual({ type: ["string", "null"], format: "date-time" });
    expect(properties.filter).toEqual({ anyOf: [{ $ref: "#/$defs/filter" }, { type: "null" }] });
    expect(properties.mode).toEqual({ type: ["string", "null"], enum: ["fast", null] });
    expect(result.schema.$defs).toEqual({
      filter: {
        type: "object",
        properties: { q: { type: "string" } },
        required: ["q"],
        additionalProperties: false,
      },
    });
    expect(result.warnings.map((warning) => `${warning.path}:${warning.keyword}`).sort()).toEqual([
      "/properties/owner/minLength:minLength",
      "/properties/state/default:default",
    ]);
    expect(openAIStrictViolations("list_issues", result.schema)).toEqual([]);
  });

  it("keeps recursion (supported) but refuses maps, untyped values, patternProperties and multi-branch allOf", () => {
    const recursive = toOpenAIStrictSchema({ type: "object", properties: { tree: { $ref: "#" } } });
    expect(recursive.strict).toBe(true);
    const cases = [
      {
        type: "object",
        properties: { env: { type: "object", additionalProperties: { type: "string" } } },
      },
      { type: "object", properties: { value: { description: "anything" } } },
      {
        type: "object",
        properties: { x: { type: "object", patternProperties: { "^a": { type: "string" } } } },
      },
      { type: "object", properties: { x: { allOf: [{ type: "string" }, { minLength: 2 }] } } },
    ];
    for (const input of cases) expect(toOpenAIStrictSchema(input).strict).toBe(false);
  });

  it("refuses schemas over the documented size limits", () => {
    const wide = {
      type: "object",
      properties: {
        pick: { type: "string", enum: Array.from({ length: 1001 }, (_, index) => `v${index}`) },
      },
      required: ["pick"],
    };
    const result = toOpenAIStrictSchema(wide);
    expect(result).toMatchObject({
      strict: false,
      reason: expect.stringContaining("1001 enum values"),
    });
    let deep: Record<string, unknown> = {
      type: "object",
      properties: { leaf: { type: "string" } },
    };
    for (let level = 0; level < 11; level++) deep = { type: "object", properties: { next: deep } };
    expect(checkOpenAIStrictLimits(deep)).toMatch(/nesting depth 12/);
  });
});

describe("restoreOpenAIStrictArguments", () => {
  it("drops the nulls strict mode added, keeps meaningful nulls", () => {
    const args = {
      owner: "o",
      state: null,
      labels: null,
      since: null,
      filter: { q: "x" },
      mode: null,
    };
    expect(restoreOpenAIStrictArguments(args, schema)).toEqual({
      owner: "o",
      since: null,
      filter: { q: "x" },
    });
  });
  it("follows $refs and arrays", () => {
    const nested = {
      type: "object",
      properties: { items: { type: "array", items: { $ref: "#/$defs/item" } } },
      $defs: {
        item: {
          type: "object",
          properties: { name: { type: "string" }, note: { type: "string" } },
          required: ["name"],
        },
      },
    };
    expect(restoreOpenAIStrictArguments({ items: [{ name: "a", note: null }] }, nested)).toEqual({
      items: [{ name: "a" }],
    });
  });
});
