import { describe, expect, it, vi } from "vitest";
import { VM_TOOLS } from "../../test/fixtures/vm-tools.js";
import type { ToolDefinition } from "../catalog/index.js";
import { indexKey, rememberIndexKey, ToolSearchIndex } from "../search/index.js";
import { BULK_AFTER, decodeEntry, ENTRY_HEADER_BYTES, encodeEntry } from "./cache-entry.js";

const TOOLS = [
  {
    name: "create_issue",
    description: "Create a GitHub issue",
    inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    server: "github",
    annotations: { readOnlyHint: false },
  },
  { name: "post_note", description: "Poste une note — メモ 📝", inputSchema: { type: "object" } },
  // a field holding undefined is not stored, as JSON would not
  { name: "bare", inputSchema: { type: "object" }, title: undefined },
] as unknown as ToolDefinition[];
const SNAPSHOT = new Uint8Array([1, 2, 3, 4]);

function decoded(bytes: Buffer) {
  const entry = decodeEntry(bytes);
  if ("problem" in entry) throw new Error(entry.problem);
  return entry;
}

describe("a catalog cache entry's bytes", () => {
  const bytes = encodeEntry(
    { tools: TOOLS, warnings: ["warning: skipped x\n"], keys: ["k1", "k2", "k3"] },
    SNAPSHOT,
  );

  it("gives back the same tools, keys, warnings and snapshot", () => {
    const entry = decoded(Buffer.from(bytes));
    expect(JSON.parse(JSON.stringify(entry.tools))).toEqual(JSON.parse(JSON.stringify(TOOLS)));
    expect(entry.tools.map((tool) => Object.keys(tool))).toEqual([
      ["name", "description", "inputSchema", "server", "annotations"],
      ["name", "description", "inputSchema"],
      ["name", "inputSchema"],
    ]);
    expect({ ...entry.tools[0] }).toEqual(TOOLS[0]);
    expect(entry.tools.every((tool) => Object.isFrozen(tool))).toBe(true);
    // a field read twice is the same object: the tool's JSON is parsed once
    expect(entry.tools[0]?.inputSchema).toBe(entry.tools[0]?.inputSchema);
    expect(entry.keys).toEqual(["k1", "k2", "k3"]);
    expect(entry.warnings).toEqual(["warning: skipped x\n"]);
    expect([...entry.snapshot]).toEqual([...SNAPSHOT]);
  });

  it("starts the snapshot 8-byte aligned, so a restore reads it in place", () => {
    const index = new ToolSearchIndex();
    index.addAll(TOOLS);
    const snapshot = index.exportSnapshot();
    // whatever the head's length, the snapshot lands on a multiple of 8
    for (const warnings of [[], ["w"], ["wa"], ["war"], ["warn"], ["warni"], ["warnin"]]) {
      const file = Buffer.from(
        encodeEntry({ tools: TOOLS, warnings, keys: ["", "", ""] }, snapshot),
      );
      const entry = decoded(file);
      expect(entry.snapshot.byteOffset % 8).toBe(0);
      expect(entry.warnings).toEqual(warnings);
      const restored = new ToolSearchIndex({
        snapshot: entry.snapshot,
        onWarning: (message) => {
          throw new Error(message);
        },
      });
      restored.addAll(TOOLS);
      expect(restored.rank("github issue", 3)).toEqual(index.rank("github issue", 3));
    }
  });

  it("parses a tool's JSON only when a field beyond its name and server is read", () => {
    const copy = Buffer.from(bytes);
    const entry = decoded(copy);
    // spoil the second tool's JSON after the checksum was checked: reading its name still works,
    // reading its description parses it (and fails); the first tool is untouched
    const text = copy.toString("latin1");
    const second = text.indexOf('{"name":"post_note","description"', ENTRY_HEADER_BYTES);
    copy.fill(0x7b, second, second + 4);
    expect(entry.tools[1]?.name).toBe("post_note");
    expect(entry.tools[0]?.description).toBe("Create a GitHub issue");
    expect(() => entry.tools[1]?.description).toThrow(SyntaxError);
  });

  it("parses the rest of the tools in one go once many were read one by one", () => {
    const many = Array.from({ length: BULK_AFTER * 3 }, (_, position) => ({
      name: `tool_${position}`,
      description: `Tool number ${position}`,
      inputSchema: { type: "object" },
    })) as unknown as ToolDefinition[];
    const keys = many.map(() => "k");
    const entry = decoded(Buffer.from(encodeEntry({ tools: many, warnings: [], keys }, SNAPSHOT)));
    const parse = vi.spyOn(JSON, "parse");
    try {
      const descriptions = entry.tools.map((tool) => tool.description);
      expect(descriptions).toEqual(many.map((tool) => tool.description));
      // BULK_AFTER tools one by one, then one parse of the whole array
      expect(parse).toHaveBeenCalledTimes(BULK_AFTER + 1);
    } finally {
      parse.mockRestore();
    }
  });

  it("restores an index of destructive tools and ranks with it without parsing any tool", () => {
    const tools = VM_TOOLS;
    const built = new ToolSearchIndex();
    built.addAll(tools);
    const keys = tools.map(indexKey);
    const entry = decoded(
      Buffer.from(encodeEntry({ tools, warnings: [], keys }, built.exportSnapshot())),
    );
    // as the catalog cache does on a hit: the checksummed keys stand for the tools
    entry.tools.forEach((tool, position) => {
      rememberIndexKey(tool, entry.keys[position] as string);
    });
    const parse = vi.spyOn(JSON, "parse");
    try {
      const index = new ToolSearchIndex({
        snapshot: entry.snapshot,
        onWarning: (message) => {
          throw new Error(message);
        },
      });
      index.addAll(entry.tools);
      // the destructive step lowers the delete tool for the object alone, as in the build
      expect(index.rank("vm snapshot", 5)).toEqual(built.rank("vm snapshot", 5));
      expect(index.rank("vm snapshot", 1)).not.toEqual(["vm_deleteSnapshot"]);
      const toolParses = parse.mock.calls.filter(
        ([text]) => typeof text === "string" && text.startsWith('{"name":'),
      );
      expect(toolParses).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });

  it("refuses damaged bytes (a flipped tool byte, a cut) and misses another format silently", () => {
    const flipped = Buffer.from(bytes);
    const at = flipped.length - SNAPSHOT.length - 10;
    flipped[at] = (flipped[at] as number) ^ 0x01;
    expect(decodeEntry(flipped)).toEqual({ problem: "its checksum does not match" });
    expect(decodeEntry(Buffer.from(bytes).subarray(0, 60))).toEqual({
      problem: "not a toolsift cache entry, or cut short",
    });
    const older = Buffer.from(bytes);
    older.writeUInt32LE(3, 4);
    expect(decodeEntry(older)).toEqual({ problem: "format" });
  });
});
