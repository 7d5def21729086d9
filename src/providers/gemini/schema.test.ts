import { describe, expect, it } from "vitest";
import { geminiViolations } from "../__tests__/rules.js";
import { restoreGeminiArguments } from "./arguments.js";
import { toGeminiSchema } from "./schema.js";

describe("toGeminiSchema (parameters)", () => {
  it("converts type arrays, const, enums and $refs to the OpenAPI subset", () => {
    const result = toGeminiSchema(
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {
          name: { type: ["string", "null"], description: "who" },
          kind: { const: "user" },
          level: { type: "integer", enum: [1, 2, 3] },
          where: { $ref: "#/$defs/place" },
          note: { anyOf: [{ type: "string" }, { type: "null" }], description: "free text" },
          id: { oneOf: [{ type: "string" }, { type: "integer" }] },
        },
        required: ["kind"],
        additionalProperties: false,
        $defs: {
          place: { type: "object", properties: { city: { type: "string", pattern: "^[A-Z]" } } },
        },
      },
      { tool: "find" },
    );
    expect(result.schema).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "who", nullable: true },
        kind: { type: "string", enum: ["user"], format: "enum" },
        level: { type: "integer", enum: ["1", "2", "3"], format: "enum" },
        where: { type: "object", properties: { city: { type: "string", pattern: "^[A-Z]" } } },
        note: { type: "string", description: "free text", nullable: true },
        id: { anyOf: [{ type: "string" }, { type: "integer" }] },
      },
      required: ["kind"],
    });
    expect(result.warnings.map((warning) => warning.code).sort()).toEqual([
      "enum_stringified",
      "keyword_weakened",
    ]);
    expect(result.mapping.values).toEqual({ "/level": [1, 2, 3] });
    expect(geminiViolations("find", result.schema)).toEqual([]);
  });

  it("renames illegal property names and maps arguments back", () => {
    const result = toGeminiSchema({
      type: "object",
      properties: {
        "If-Match": { type: "string" },
        $meta: {
          type: "array",
          items: {
            type: "object",
            properties: { "2fa": { type: "boolean" }, mode: { enum: [0, 1] } },
          },
        },
      },
      required: ["If-Match"],
    });
    expect(Object.keys(result.schema?.properties ?? {})).toEqual(["If_Match", "_meta"]);
    expect(result.schema?.required).toEqual(["If_Match"]);
    expect(result.mapping.renamed).toEqual({
      "/If_Match": "If-Match",
      "/_meta": "$meta",
      "/_meta/*/_2fa": "2fa",
    });
    const restored = restoreGeminiArguments(
      { If_Match: "etag", _meta: [{ _2fa: true, mode: "1" }] },
      result.mapping,
    );
    expect(restored).toEqual({ "If-Match": "etag", $meta: [{ "2fa": true, mode: 1 }] });
    expect(result.warnings.filter((warning) => warning.code === "property_renamed")).toHaveLength(
      3,
    );
    expect(geminiViolations("t", result.schema)).toEqual([]);
  });

  it("cuts recursion with a warning and terminates", () => {
    const result = toGeminiSchema({
      type: "object",
      properties: { root: { $ref: "#/$defs/node" } },
      $defs: {
        node: {
          type: "object",
          description: "a node",
          properties: {
            value: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
        },
      },
    });
    const root = result.schema?.properties as Record<string, Record<string, unknown>>;
    expect(root.root?.properties).toMatchObject({
      children: { type: "array", items: { type: "object", description: "a node" } },
    });
    expect(result.warnings.some((warning) => warning.code === "recursion_cut")).toBe(true);
    expect(geminiViolations("t", result.schema)).toEqual([]);
  });

  it("distributes siblings into anyOf branches and merges allOf", () => {
    const result = toGeminiSchema({
      type: "object",
      properties: {
        target: {
          type: "object",
          description: "one of two",
          properties: { a: { type: "string" }, b: { type: "string" } },
          anyOf: [{ required: ["a"] }, { required: ["b"] }],
        },
        both: {
          allOf: [
            { type: "object", properties: { x: { type: "string" } } },
            { properties: { y: { type: "number" } }, required: ["y"] },
          ],
        },
      },
    });
    const props = result.schema?.properties as Record<string, Record<string, unknown>>;
    const branches = props.target?.anyOf as Record<string, unknown>[];
    expect(Object.keys(props.target ?? {})).toEqual(["anyOf"]);
    expect(branches.map((branch) => branch.required)).toEqual([["a"], ["b"]]);
    expect(branches[0]?.description).toBe("one of two");
    expect(props.both).toEqual({
      type: "object",
      properties: { x: { type: "string" }, y: { type: "number" } },
      required: ["y"],
    });
    expect(geminiViolations("t", result.schema)).toEqual([]);
  });

  it("drops keywords outside the Schema proto with warnings and omits empty parameters", () => {
    const result = toGeminiSchema({
      type: "object",
      properties: {
        n: { type: "number", exclusiveMinimum: 0, multipleOf: 2 },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true },
      },
    });
    expect(result.schema?.properties).toEqual({
      n: { type: "number", minimum: 0 },
      tags: { type: "array", items: { type: "string" } },
    });
    expect(result.warnings.map((warning) => warning.keyword).sort()).toEqual([
      "exclusiveMinimum",
      "multipleOf",
      "uniqueItems",
    ]);
    expect(toGeminiSchema({ type: "object", properties: {} }).schema).toBeUndefined();
  });
});

describe("toGeminiSchema (parametersJsonSchema)", () => {
  it("keeps JSON Schema but strips $schema and vendor keys", () => {
    const result = toGeminiSchema(
      {
        $schema: "x",
        type: "object",
        properties: { token: { type: "string", "x-mcp-header": "Authorization" } },
      },
      { field: "parametersJsonSchema" },
    );
    expect(result.field).toBe("parametersJsonSchema");
    expect(result.schema).toEqual({ type: "object", properties: { token: { type: "string" } } });
    expect(result.warnings[0]).toMatchObject({
      path: "/properties/token/x-mcp-header",
      keyword: "x-mcp-header",
    });
  });
});
