import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { nameSuffix } from "../../internal/index.js";
import { NameLookup, namePhraseOf } from "./name-lookup.js";

const NAMES = [
  "mcp__github__create_issue",
  "mcp__gitlab__Create_Issue",
  "Create_Issue",
  "files.readAll",
  "mcp__café__Créer_Ticket",
  "ΟΔΟΣ.Σ",
  "create_issue",
];

function setUp(): { lookup: NameLookup; tools: (ToolDefinition | undefined)[] } {
  const tools: (ToolDefinition | undefined)[] = [];
  const lookup = new NameLookup(tools);
  NAMES.forEach((name, id) => {
    tools[id] = { name, description: "", inputSchema: { type: "object" } };
    lookup.add(id, name);
  });
  return { lookup, tools };
}

/** The ids a plain scan finds, in id order (the order tools were filed here). */
function scan(test: (name: string) => boolean): number[] {
  return NAMES.flatMap((name, id) => (test(name) ? [id] : []));
}

describe("NameLookup", () => {
  it("finds names exactly, lowercased, by suffix and by phrase, as a scan would", () => {
    const { lookup } = setUp();
    expect(lookup.size).toBe(NAMES.length);
    NAMES.forEach((name, id) => {
      expect(lookup.idOf(name)).toBe(id);
      const lower = name.toLowerCase();
      expect(lookup.idsByLowerName(lower)).toEqual(scan((n) => n.toLowerCase() === lower));
      const suffix = nameSuffix(lower);
      expect(lookup.idsBySuffix(suffix)).toEqual(
        scan((n) => nameSuffix(n.toLowerCase()) === suffix),
      );
      const phrase = namePhraseOf(name);
      expect(lookup.idsByPhrase(phrase)).toEqual(scan((n) => namePhraseOf(n) === phrase));
    });
    expect(lookup.idOf("CREATE_ISSUE")).toBe(-1);
    expect(lookup.idsByLowerName("create_issue")).toEqual([2, 6]);
    expect(lookup.idsBySuffix("create_issue")).toEqual([0, 1, 2, 6]);
    expect(lookup.idsBySuffix("nothing")).toEqual([]);
  });

  it("forgets a removed tool and files a re-added one after the others", () => {
    const { lookup, tools } = setUp();
    lookup.delete(2);
    tools[2] = undefined;
    expect(lookup.idOf("Create_Issue")).toBe(-1);
    expect(lookup.idsByLowerName("create_issue")).toEqual([6]);
    tools[2] = { name: "Create_Issue", description: "", inputSchema: { type: "object" } };
    lookup.add(2, "Create_Issue");
    expect(lookup.idsByLowerName("create_issue")).toEqual([6, 2]);
    expect(lookup.idsBySuffix("create_issue")).toEqual([0, 1, 6, 2]);
    expect(lookup.size).toBe(NAMES.length);
  });
});
