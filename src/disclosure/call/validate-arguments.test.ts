import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { arrayCatalog, mcpTool, substringSearch, textOf } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import { checkArguments } from "./validate-arguments.js";

const draft07 = mcpTool("d7", "srv", {
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      state: { type: "string", enum: ["open", "closed"] },
      limit: { type: "integer", minimum: 1 },
      pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
      flag: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["state"],
    additionalProperties: false,
  },
});

const draft2020 = mcpTool("d2020", "srv", {
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
      when: { type: "string", format: "date" },
    },
    required: ["pair"],
  },
});

describe("checkArguments", () => {
  it("validates draft-07 schemas, tuple items included", () => {
    expect(checkArguments(draft07, { state: "open", pair: ["a", 1] }).ok).toBe(true);
    expect(checkArguments(draft07, { state: "open", pair: [1, "a"] }).ok).toBe(false);
  });

  it("validates 2020-12 schemas (prefixItems, formats)", () => {
    expect(checkArguments(draft2020, { pair: ["a", 1] }).ok).toBe(true);
    expect(checkArguments(draft2020, { pair: ["a", 1, 2] }).ok).toBe(false);
    expect(checkArguments(draft2020, { pair: ["a", 1], when: "yesterday" }).ok).toBe(false);
  });

  it("quotes the relevant schema part and says the tool did not run", () => {
    const check = checkArguments(draft07, { state: "merged", extra: 1 });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toContain('Tool "d7" did not run');
    expect(check.message).toContain(
      'at /state: must be equal to one of the allowed values; schema: {"type":"string","enum":["open","closed"]}',
    );
    expect(check.message).toContain(
      'must NOT have additional properties "extra"; schema: {"allowed":["state","limit","pair","flag","tags"]}',
    );
    const missing = checkArguments(draft07, {});
    expect(!missing.ok && missing.message).toContain(
      `must have required property 'state'; schema: {"required":["state"],"properties":{"state":{"type":"string","enum":["open","closed"]}}}`,
    );
  });

  it("repairs numbers, booleans and arrays sent as strings, and reports each repair", () => {
    const check = checkArguments(draft07, {
      state: "open",
      limit: "5",
      flag: "true",
      tags: '["a","b"]',
    });
    expect(check).toMatchObject({
      ok: true,
      arguments: { state: "open", limit: 5, flag: true, tags: ["a", "b"] },
    });
    expect(check.repairs).toHaveLength(3);
    expect(checkArguments(draft07, { state: "open", limit: "1.5" }).ok).toBe(false);
    expect(checkArguments(draft07, { state: "open", flag: "yes" }).ok).toBe(false);
  });

  it("refuses a call whose schema cannot be compiled, unless the host allows unchecked calls", () => {
    const broken = mcpTool("broken", "srv", {
      inputSchema: { type: "object", properties: { a: { $ref: "#/nowhere" } } },
    });
    const refused = checkArguments(broken, { a: 1 });
    expect(refused).toMatchObject({ ok: false, code: "schema_unusable" });
    expect(!refused.ok && refused.message).toMatch(
      /^Tool "broken" did not run: its input schema cannot be checked \(Ajv could not compile it \(can't resolve reference #\/nowhere/,
    );
    expect(checkArguments(broken, { a: 1 }, { uncheckedSchemas: "allow" })).toMatchObject({
      ok: true,
      checked: false,
    });
  });
});

describe("argument repairs in execute", () => {
  const echo = (tool: ToolDefinition): ToolDefinition => ({ ...tool, handler: (args) => args });
  const catalog = arrayCatalog([echo(draft07)]);
  const disclosure = createDisclosure({
    catalog,
    search: substringSearch(catalog),
    mode: "on",
    strategy: "bridge",
  });

  it.each([
    ["a JSON string", '{"state":"open"}', "arguments parsed from a JSON string"],
    [
      "double nesting",
      { arguments: { state: "open" } },
      "double-nested {arguments: {...}} unwrapped",
    ],
  ])("repairs %s", async (_label, args, repair) => {
    const outcome = await disclosure.execute({ session: "s", name: "d7", arguments: args });
    expect(textOf(outcome)).toBe('{"state":"open"}');
    expect(outcome.repairs).toContain(repair);
  });

  it("reads an empty string as no arguments", async () => {
    const catalog = arrayCatalog([
      mcpTool("noargs", "srv", { inputSchema: { type: "object" }, handler: () => "ok" }),
    ]);
    const outcome = await createDisclosure({ catalog, search: substringSearch(catalog) }).execute({
      session: "s",
      name: "noargs",
      arguments: "",
    });
    expect(textOf(outcome)).toBe("ok");
    expect(outcome.repairs).toEqual(["empty string read as no arguments"]);
  });

  it("repairs a JSON-string arguments field inside a bridge call", async () => {
    const outcome = await disclosure.execute({
      session: "s",
      name: "tool_call",
      arguments: { name: "d7", arguments: '{"state":"closed"}' },
    });
    expect(textOf(outcome)).toBe('{"state":"closed"}');
  });

  it("refuses arguments that cannot be read, without running the tool", async () => {
    const outcome = await disclosure.execute({ session: "s", name: "d7", arguments: "[1,2]" });
    expect(outcome).toMatchObject({ isError: true, ran: false, errorCode: "invalid_arguments" });
    expect(textOf(outcome)).toMatch(/did not run: arguments must be a JSON object/);
  });
});
