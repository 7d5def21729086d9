import { describe, expect, it } from "vitest";
import { keywordWalk } from "./check-schema-keywords.js";
import { MAX_ENUM_VALUES, schemaShapeProblem } from "./check-schema-shape.js";
import { createCatalog } from "./create-catalog.js";
import type { ToolDefinition } from "./types.js";
import { validateEntries, validateTools } from "./validate-tools.js";

const schema = { type: "object", properties: {} };
const good = (name: string) => ({ name, description: `Does ${name}`, inputSchema: schema });

describe("validateTools", () => {
  it("accepts good tools and normalises missing description and inputSchema", () => {
    const { valid, issues } = validateTools([good("read_file"), { name: "ping" }]);
    expect(issues).toEqual([]);
    expect(valid.map((tool) => tool.name)).toEqual(["read_file", "ping"]);
    expect(valid[1]).toEqual({ name: "ping", description: "", inputSchema: { type: "object" } });
  });

  it("accepts MCP-style names with dots, slashes, colons and dashes", () => {
    const names = [
      "math.factorial",
      "github/create_issue",
      "ns:tool",
      "API-get-user",
      "a".repeat(128),
    ];
    expect(validateTools(names.map(good)).issues).toEqual([]);
  });

  it("reports every problem at once, each naming the tool and the fix", () => {
    const { valid, issues } = validateTools([
      good("ok_tool"),
      "not a tool",
      { description: "no name", inputSchema: schema },
      { name: "", inputSchema: schema },
      { name: 42, inputSchema: schema },
      good("bad name!"),
      good("ok_tool"),
      { name: "array_schema", description: "x", inputSchema: [] },
      { name: "string_root", description: "x", inputSchema: { type: "string" } },
      { name: "bad_desc", description: 7, inputSchema: schema },
      {
        ...good("bad_fields"),
        defer: "sometimes",
        maxResultTokens: 1.5,
        truncation: "middle",
        handler: "run()",
        tags: ["a", 2],
        annotations: "readonly",
        outputSchema: null,
      },
      { ...good("x".repeat(129)) },
    ]);
    expect(valid.map((tool) => tool.name)).toEqual(["ok_tool"]);
    const summary = issues.map((issue) => `${issue.tool} ${issue.code}`);
    expect(summary).toEqual([
      "#1 tool_not_object",
      "#2 name_invalid",
      "#3 name_invalid",
      "#4 name_invalid",
      "bad name! name_invalid",
      "ok_tool duplicate_tool",
      "array_schema schema_invalid",
      "string_root schema_invalid",
      "bad_desc field_invalid",
      "bad_fields schema_invalid",
      "bad_fields field_invalid",
      "bad_fields field_invalid",
      "bad_fields field_invalid",
      "bad_fields field_invalid",
      "bad_fields field_invalid",
      "bad_fields field_invalid",
      `${"x".repeat(129)} name_invalid`,
    ]);
    const text = (tool: string) =>
      issues
        .filter((issue) => issue.tool === tool)
        .map((issue) => issue.message)
        .join(" | ");
    expect(text("bad name!")).toMatch(/"bad_name_".*nameRule: "lenient"/);
    expect(text("ok_tool")).toMatch(/entry #0.*rename/);
    expect(text("string_root")).toMatch(/root type "string".*"type": "object"/);
    expect(text("bad_fields")).toMatch(/use "never", "auto" or "always"/);
    expect(text("bad_fields")).toMatch(/maxResultTokens is 1.5; use a positive whole number/);
    expect(text("bad_fields")).toMatch(/"head", "tail", "head-tail" or "smart"/);
    expect(text("bad_fields")).toMatch(/handler is "run\(\)"; make it a function/);
    expect(text("bad_fields")).toMatch(/tags must be an array of strings/);
    expect(text("bad_fields")).toMatch(/annotations is a string|annotations is "readonly"/);
    expect(text("bad_fields")).toMatch(/outputSchema is null/);
    expect(text("#2")).toMatch(/has no name; add a "name"/);
  });

  it("flags names already taken by the catalog and carries the source", () => {
    const { issues } = validateTools([good("taken")], {
      existing: new Set(["taken"]),
      source: "tools.json",
    });
    expect(issues).toEqual([
      {
        tool: "taken",
        code: "duplicate_tool",
        message: expect.stringMatching(/already in the catalog; use replace\(\)/),
        source: "tools.json",
      },
    ]);
  });

  it("accepts benchmark-style names only under the lenient rule", () => {
    const names = ["PDF&URLTool", "requestFirst Aid Assistance", "y".repeat(141)];
    expect(validateTools(names.map(good)).issues).toHaveLength(3);
    expect(validateTools(names.map(good), { nameRule: "lenient" }).issues).toEqual([]);
    const lenientBad = [" padded", "tab\tname", "z".repeat(257)];
    expect(validateTools(lenientBad.map(good), { nameRule: "lenient" }).issues).toHaveLength(3);
  });

  it("drops unknown fields, keeps ours, and freezes the stored copy", () => {
    const handler = () => "ok";
    const tags = ["files"];
    const input = {
      ...good("t"),
      execution: { taskSupport: "forbidden" },
      _meta: {},
      tags,
      handler,
    };
    const [tool] = validateTools([input]).valid;
    expect(tool).toBeDefined();
    expect(Object.keys(tool!).sort()).toEqual([
      "description",
      "handler",
      "inputSchema",
      "name",
      "tags",
    ]);
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool!.tags)).toBe(true);
    tags.push("more");
    expect(tool!.tags).toEqual(["files"]);
  });
});

describe("tools validateTools already returned", () => {
  it("are kept as they are by a catalog, without a second check", () => {
    const { valid } = validateTools([{ name: "read_file", inputSchema: { type: "object" } }]);
    const tool = valid[0] as ToolDefinition;
    // the same object: not normalised and copied again (createToolSift over loaded catalogs)
    expect(createCatalog([tool]).get("read_file")).toBe(tool);
  });

  it("are checked again under a stricter name rule", () => {
    const { valid } = validateTools([{ name: "PDF&URLTool" }], { nameRule: "lenient" });
    expect(valid).toHaveLength(1);
    expect(() => createCatalog(valid)).toThrow(/characters outside/);
  });
});

describe("schema checks of a batch (size and keywords in one walk of the input schema)", () => {
  const values = Array.from({ length: MAX_ENUM_VALUES + 1 }, (_, index) => `v${index}`);
  const tooLarge = { type: "object", properties: { v: { enum: values } } };
  const badPattern = { type: "object", properties: { a: { type: "string", pattern: "(x" } } };
  const batch = [
    { name: "too_large", inputSchema: tooLarge },
    { name: "bad_pattern", inputSchema: badPattern },
    // both: the size problem rejects the tool, so the keyword problem is never a warning
    {
      name: "both",
      inputSchema: {
        ...tooLarge,
        properties: { ...tooLarge.properties, ...badPattern.properties },
      },
    },
    // a size limit only data breaks (the keyword walk never looks inside a default)
    { name: "data_too_large", inputSchema: { type: "object", default: { enum: values } } },
    { name: "output_too_large", inputSchema: schema, outputSchema: tooLarge },
    { name: "clean", inputSchema: schema },
  ];

  it("reports every size problem and keyword warning, each in the words of its own check", () => {
    const { valid, issues, warnings } = validateTools(batch);
    const size = (field: string, value: unknown) =>
      `Tool "${field.split(" ")[0]}": ${field.split(" ")[1]} ${schemaShapeProblem(value)}.`;
    expect(issues.map((issue) => [issue.tool, issue.code, issue.message])).toEqual([
      ["too_large", "schema_too_large", size("too_large inputSchema", tooLarge)],
      ["both", "schema_too_large", size("both inputSchema", batch[2]?.inputSchema)],
      [
        "data_too_large",
        "schema_too_large",
        size("data_too_large inputSchema", batch[3]?.inputSchema),
      ],
      ["output_too_large", "schema_too_large", size("output_too_large outputSchema", tooLarge)],
    ]);
    expect(valid.map((tool) => tool.name)).toEqual(["bad_pattern", "clean"]);
    expect(warnings.map((warning) => [warning.tool, warning.code])).toEqual([
      ["bad_pattern", "schema_unchecked"],
    ]);
    expect(warnings[0]?.message).toContain(`(${keywordWalk(badPattern)})`);
  });

  it("reports the same size problems when a catalog skips the keyword warnings", () => {
    const { issues } = validateEntries(
      batch.map((value) => ({ value })),
      {},
      { schemaWarnings: false },
    );
    expect(issues.map((issue) => issue.message)).toEqual(
      validateTools(batch).issues.map((issue) => issue.message),
    );
  });
});
