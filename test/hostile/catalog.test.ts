import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalogFile } from "../../src/catalog/node.js";
import { runCli } from "../../src/cli/run-cli.js";
import { createCatalog, createToolSift, InvalidToolError, validateTools } from "../../src/index.js";

function nestedProperties(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let level = 0; level < levels; level += 1) {
    schema = { type: "object", properties: { next: schema } };
  }
  return schema;
}

function nestedItems(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let level = 0; level < levels; level += 1) schema = { type: "array", items: schema };
  return { type: "object", properties: { list: schema } };
}

const plain = { name: "read_file", description: "Read a file.", inputSchema: { type: "object" } };

function issuesOf(tools: unknown[], nameRule: "strict" | "lenient" = "strict") {
  return validateTools(tools, { nameRule }).issues.map((issue) => `${issue.code} ${issue.message}`);
}

describe("hostile schemas are refused at load, the other tools kept", () => {
  it("refuses 3,000 nested properties and 6,000 nested items with the limit named", () => {
    const deep = [
      { name: "deep_properties", inputSchema: nestedProperties(3_000) },
      { name: "deep_items", inputSchema: nestedItems(6_000) },
      plain,
    ];
    const { valid, issues } = validateTools(deep);
    expect(valid.map((tool) => tool.name)).toEqual(["read_file"]);
    expect(issues.map((issue) => [issue.tool, issue.code])).toEqual([
      ["deep_properties", "schema_too_large"],
      ["deep_items", "schema_too_large"],
    ]);
    expect(issues[0]?.message).toMatch(
      /nested deeper than 64 levels \(MAX_SCHEMA_DEPTH\) at \/properties\/next/,
    );
  });

  it("refuses huge enums and property lists, naming the limit", () => {
    const values = Array.from({ length: 20_000 }, (_, index) => `v${index}`);
    const properties = Object.fromEntries(values.map((value) => [value, { type: "string" }]));
    const found = issuesOf([
      { name: "big_enum", inputSchema: { type: "object", properties: { v: { enum: values } } } },
      { name: "wide", inputSchema: { type: "object", properties } },
    ]);
    expect(found[0]).toMatch(
      /^schema_too_large .*enum of 20,000 values at \/properties\/v\/enum \(MAX_ENUM_VALUES is 2,000\)/,
    );
    expect(found[1]).toMatch(
      /^schema_too_large .*20,000 properties at \(root\)\/properties \(MAX_PROPERTIES is 1,000\)/,
    );
  });

  it("reports a cyclic schema object instead of looping or overflowing", () => {
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(issuesOf([{ name: "cyclic", inputSchema: cyclic }])[0]).toMatch(/MAX_SCHEMA_DEPTH/);
  });

  it("catalog.add throws a clear InvalidToolError, not a RangeError", () => {
    const catalog = createCatalog([plain]);
    let thrown: unknown;
    try {
      catalog.add({ name: "deep", description: "", inputSchema: nestedProperties(3_000) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidToolError);
    expect(catalog.size).toBe(1);
  });

  it("a file with one deep tool loads the rest, and every turn still prepares", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-hostile-"));
    const file = path.join(dir, "tools.json");
    // written as text: JSON.stringify itself overflows on 6,000 levels
    const deepItems = `${'{"type":"array","items":'.repeat(6_000)}{"type":"string"}${"}".repeat(6_000)}`;
    const deep = `{"name":"deep","description":"d","inputSchema":{"type":"object","properties":{"list":${deepItems}}}}`;
    writeFileSync(file, `[${JSON.stringify(plain)},${deep}]`);
    const { tools, warnings } = await loadCatalogFile(file, { onInvalid: "skip" });
    expect(tools.map((tool) => tool.name)).toEqual(["read_file"]);
    expect(warnings[0]?.code).toBe("schema_too_large");
    const sift = createToolSift({ tools });
    expect(() => sift.prepare({ session: "s", contextWindow: 200_000 })).not.toThrow();

    const io = {
      out: "",
      err: "",
      stdout(text: string) {
        io.out += text;
      },
      stderr(text: string) {
        io.err += text;
      },
    };
    const code = await runCli(["search", "read a file", "--catalog", file], io);
    expect(code).toBe(0);
    expect(io.out).toContain("read_file");
    expect(`${io.out}${io.err}`).not.toMatch(/RangeError|at .*\.js:\d+/);
  });
});

describe("names that display as another name", () => {
  it("refuses format characters, naming the tool and the code point", () => {
    for (const rule of ["strict", "lenient"] as const) {
      const found = issuesOf(
        [
          { ...plain, name: "read_file\u200b" },
          { ...plain, name: "delete\u202erepo" },
        ],
        rule,
      );
      expect(found[0]).toMatch(/^name_invalid .*"read_file\u200b".*U\+200B at position 9/);
      expect(found[1]).toMatch(/^name_invalid .*U\+202E at position 6/);
    }
  });

  it("refuses a look-alike of a tool in the batch or already in the catalog", () => {
    const found = issuesOf(
      [plain, { ...plain, name: "read_fіle" }, { ...plain, name: "ｒｅａｄ_file" }],
      "lenient",
    );
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(
      /^name_confusable .*"read_fіle" looks the same as the tool "read_file"/,
    );
    const catalog = createCatalog([plain], { nameRule: "lenient" });
    expect(() => catalog.add({ ...plain, name: "rеad_file" })).toThrow(
      /name_confusable|looks the same/,
    );
    catalog.replace({ ...plain, description: "Read a file, again." });
    expect(catalog.size).toBe(1);
  });

  it("keeps ASCII names that differ only in case (visible, and real benchmark data has them)", () => {
    expect(
      issuesOf([
        { ...plain, name: "calculate_BMI" },
        { ...plain, name: "calculate_bmi" },
      ]),
    ).toEqual([]);
  });
});
