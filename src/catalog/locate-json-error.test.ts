import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locateJsonError } from "./locate-json-error.js";

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("locateJsonError", () => {
  it("points at a trailing comma with line and column", () => {
    expect(locateJsonError('[\n  {"a": 1},\n]')).toEqual({
      offset: 14,
      line: 3,
      column: 1,
      expected: "a JSON value",
    });
    expect(locateJsonError('{"a": 1,}')?.expected).toMatch(/property name/);
    expect(locateJsonError('{"a": 1')?.expected).toBe('"," or "}"');
    expect(locateJsonError("[1] x")?.expected).toMatch(/extra text/);
  });

  it("property: agrees with JSON.parse on valid JSON and on damaged JSON", () => {
    fc.assert(
      fc.property(
        fc.json(),
        fc.nat(),
        fc.constantFrom("", ",", "}", "]", '"', "x", "\n"),
        (text, at, insert) => {
          expect(locateJsonError(text)).toBeUndefined();
          const cut = at % (text.length + 1);
          const damaged = text.slice(0, cut) + insert + text.slice(cut + 1);
          expect(locateJsonError(damaged) === undefined).toBe(parses(damaged));
        },
      ),
      { numRuns: 500 },
    );
  });
});
