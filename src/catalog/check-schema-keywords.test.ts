import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  firstKeywordProblem,
  keywordWalk,
  schemaClean,
  schemaKeywordProblem,
} from "./check-schema-keywords.js";
import {
  firstShapeProblem,
  MAX_ENUM_VALUES,
  MAX_PROPERTIES,
  MAX_SCHEMA_NODES,
  schemaShapeProblem,
} from "./check-schema-shape.js";

// keyword values that pass and that fail each rule: counts, numbers, bounds, patterns, types,
// required, enum and $ref
const keywordValue = fc.constantFrom<unknown>(
  0,
  3,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
  "string",
  "object",
  "strin",
  "^[a-z]+$",
  "(",
  "\\p{L}",
  "#/$defs/x",
  "https://example.com/schema",
  ["string", "null"],
  ["string", 3],
  [],
  ["a", "b"],
  {},
);
const keyword = fc.constantFrom(
  "type",
  "maxLength",
  "minItems",
  "maximum",
  "exclusiveMinimum",
  "multipleOf",
  "pattern",
  "required",
  "enum",
  "$ref",
  "description",
  "default",
);

/** Schema-like values: keywords with good and bad values, and nested schemas in every place a
 * schema may hold one (and some it may not: a map that is a list, a schema that is a number). */
const { schema } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<unknown>(true, false, 3, "x", null),
    fc
      .record(
        {
          words: fc.dictionary(keyword, keywordValue, { maxKeys: 4 }),
          properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("schema"), { maxKeys: 3 }),
          patternProperties: fc.dictionary(fc.constantFrom("^x", "(", "[a-"), tie("schema"), {
            maxKeys: 2,
          }),
          anyOf: fc.oneof(fc.array(tie("schema"), { maxLength: 2 }), tie("schema")),
          items: fc.oneof(tie("schema"), fc.array(tie("schema"), { maxLength: 2 })),
          not: tie("schema"),
          dependencies: fc.dictionary(
            fc.constantFrom("a", "b"),
            fc.oneof(fc.constant(["a"]), tie("schema")),
            { maxKeys: 2 },
          ),
        },
        { requiredKeys: [] },
      )
      .map(({ words, ...nested }) => ({ ...words, ...nested })),
  ),
}));

describe("keywordWalk", () => {
  it("finds a problem exactly when the step-by-step walk does, and names the same one", () => {
    fc.assert(
      fc.property(schema, (value) => {
        expect(keywordWalk(value)).toBe(firstKeywordProblem(value));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads keywords a class instance inherits, as the full walk does", () => {
    class Schema {
      get type() {
        return "text";
      }
    }
    expect(keywordWalk(new Schema())).toBe('/type holds "text", not a JSON type');
  });
});

describe("schemaClean (the size and keyword checks in one walk)", () => {
  it("is true exactly when neither step-by-step walk finds a problem", () => {
    fc.assert(
      fc.property(schema, (value) => {
        const clean =
          firstShapeProblem(value) === undefined && firstKeywordProblem(value) === undefined;
        expect(schemaClean(value)).toBe(clean);
        expect(schemaKeywordProblem(value)).toBe(
          firstShapeProblem(value) === undefined
            ? firstKeywordProblem(value)
            : `the schema ${firstShapeProblem(value)}`,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("fails on a size limit that only data breaks, where the keyword walk never looks", () => {
    const values = Array.from({ length: MAX_ENUM_VALUES + 1 }, (_, index) => index);
    // an enum-shaped object inside a default: not a schema, but still counted and limited
    const inDefault = { type: "object", default: { enum: values } };
    expect(firstKeywordProblem(inDefault)).toBeUndefined();
    expect(schemaClean(inDefault)).toBe(false);
    const many = { type: "object", examples: Array.from({ length: MAX_SCHEMA_NODES }, () => 1) };
    expect(firstKeywordProblem(many)).toBeUndefined();
    expect(schemaClean(many)).toBe(false);
    expect(schemaClean({ type: "object", default: { enum: [1, 2] } })).toBe(true);
  });

  it("stops at a cycle instead of overflowing the stack", () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expect(schemaClean(cyclic)).toBe(false);
    const data: Record<string, unknown> = {};
    data.self = data;
    expect(schemaClean({ type: "object", default: data })).toBe(false);
  });
});

describe("schemaShapeProblem", () => {
  it("finds a problem exactly when the step-by-step walk does, and names the same one", () => {
    fc.assert(
      fc.property(schema, (value) => {
        expect(schemaShapeProblem(value)).toBe(firstShapeProblem(value));
      }),
      { numRuns: 1000 },
    );
  });

  it("reports a cycle and an oversized properties object with their places", () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expect(schemaShapeProblem(cyclic)).toMatch(/nested deeper than 64 levels .* at \/properties/);
    const wide = Object.fromEntries(
      Array.from({ length: MAX_PROPERTIES + 1 }, (_, index) => [`p${index}`, {}]),
    );
    expect(schemaShapeProblem({ type: "object", properties: { a: { properties: wide } } })).toBe(
      `has ${(MAX_PROPERTIES + 1).toLocaleString("en")} properties at /properties/a/properties (MAX_PROPERTIES is ${MAX_PROPERTIES.toLocaleString("en")}); group them into nested objects or split the tool`,
    );
  });
});
