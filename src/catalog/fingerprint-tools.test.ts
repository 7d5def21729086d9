import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContentHash, fingerprintTools, hashCanonical, hashString } from "./fingerprint-tools.js";
import type { ToolDefinition } from "./types.js";

const base: ToolDefinition = {
  name: "search_files",
  description: "Find files by glob",
  inputSchema: {
    type: "object",
    properties: { pattern: { type: "string" } },
    required: ["pattern"],
  },
  annotations: { readOnlyHint: true },
  tags: ["files"],
};

describe("fingerprintTools", () => {
  it("ignores key order, tool order and handlers", () => {
    const reordered: ToolDefinition = {
      tags: ["files"],
      annotations: { readOnlyHint: true },
      inputSchema: {
        required: ["pattern"],
        properties: { pattern: { type: "string" } },
        type: "object",
      },
      description: "Find files by glob",
      name: "search_files",
      handler: () => 1,
    };
    const other: ToolDefinition = { name: "a", description: "", inputSchema: { type: "object" } };
    expect(fingerprintTools([base, other])).toBe(fingerprintTools([other, reordered]));
  });

  it("changes when any field changes, even deep in a schema", () => {
    const reference = fingerprintTools([base]);
    const variants: ToolDefinition[] = [
      { ...base, name: "search_file" },
      { ...base, description: "Find files by glob." },
      { ...base, inputSchema: { ...base.inputSchema, required: [] } },
      {
        ...base,
        inputSchema: { ...base.inputSchema, properties: { pattern: { type: "number" } } },
      },
      { ...base, annotations: { readOnlyHint: false } },
      { ...base, tags: ["file"] },
      { ...base, defer: "never" },
      { ...base, server: "fs" },
    ];
    const prints = variants.map((variant) => fingerprintTools([variant]));
    expect(new Set([reference, ...prints]).size).toBe(variants.length + 1);
  });

  it("hashes the canonical form: key order is ignored, types and boundaries are not", () => {
    const same = (x: unknown, y: unknown) => hashCanonical(x, "t") === hashCanonical(y, "t");
    expect(same({ b: 1, a: { d: [1, 2], c: null } }, { a: { c: null, d: [1, 2] }, b: 1 })).toBe(
      true,
    );
    expect(same({ a: 1, f: () => 1, u: undefined }, { a: 1 })).toBe(true);
    expect(same({ a: "1" }, { a: 1 })).toBe(false);
    expect(same(["ab"], ["a", "b"])).toBe(false);
    expect(same({ ab: "c" }, { a: "bc" })).toBe(false);
    expect(same([1, 2], [2, 1])).toBe(false);
    expect(same({ a: true }, { a: "true" })).toBe(false);
  });

  it("rejects circular definitions with an error naming the tool", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.self = schema;
    expect(() =>
      fingerprintTools([{ name: "loop", description: "", inputSchema: schema }]),
    ).toThrow(/Tool "loop" contains a circular reference/);
  });

  it("keeps the values earlier processes saved (snapshots and cache entries hold them)", () => {
    // pinned from the build before the hash states shared one shape: a change of value would
    // turn every saved index and CLI cache entry into a rebuild
    expect([hashString(""), hashString("create a github issue"), hashString("é✓ ü")]).toEqual([
      "6ea7ab0ea4ac503a",
      "b7df441e7b534813",
      "1bf6057e3456a3b0",
    ]);
    const schema = { type: "object", properties: { path: { type: "string" } } };
    expect(
      hashCanonical({ name: "read_file", inputSchema: schema, n: 1, b: true }, "read_file"),
    ).toBe("62b5e72049dd1428");
    const content = new ContentHash();
    content.count(3);
    content.text("abc");
    content.text("é");
    expect(content.digest()).toBe("20d1f6208b613ed8");
  });

  it("hashString gives 16 hex chars and no collisions on near-identical inputs", () => {
    const seen = new Set<string>();
    for (let index = 0; index < 20_000; index++) seen.add(hashString(`tool_${index}`));
    expect(seen.size).toBe(20_000);
    fc.assert(fc.property(fc.string(), (text) => /^[0-9a-f]{16}$/.test(hashString(text))));
    expect(hashString("ab")).not.toBe(hashString("ba"));
  });

  it("ContentHash keeps the boundaries between the texts it is fed", () => {
    const digest = (texts: readonly string[]) => {
      const hash = new ContentHash();
      hash.count(texts.length);
      for (const text of texts) hash.text(text);
      return hash.digest();
    };
    expect(digest(["ab", "c"])).toBe(digest(["ab", "c"]));
    expect(digest(["ab", "c"])).not.toBe(digest(["a", "bc"]));
    expect(digest(["a", ""])).not.toBe(digest(["", "a"]));
    expect(digest([])).not.toBe(digest([""]));
    expect(digest(["x"])).toMatch(/^[0-9a-f]{16}$/);
  });
});
