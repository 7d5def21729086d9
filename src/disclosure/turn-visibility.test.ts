import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createToolSift } from "../create-toolsift.js";

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object" },
  handler: () => `ran ${name}`,
});

const tools = [
  tool("read_notes", "Read the team's notes."),
  tool("delete_notes", "Delete all of the team's notes."),
  ...Array.from({ length: 30 }, (_, index) => tool(`extra_${index}`, `Extra tool ${index}.`)),
];

// what a gateway session whose user profile hides delete_notes passes with each turn
const narrowed = {
  key: "no-delete",
  isVisible: (candidate: ToolDefinition) => !candidate.name.startsWith("delete"),
};

describe("a turn's own visibility (PrepareInput.visibility, ExecuteInput.visibility)", () => {
  it("hides a tool from that turn's plan, search and calls, and from no other turn", async () => {
    const sift = createToolSift({ tools });
    const plain = sift.prepare({ session: "a", mode: "off" });
    expect(plain.loaded.map((each) => each.name)).toContain("delete_notes");
    const turn = { mode: "off" as const, visibility: narrowed };
    const hidden = sift.prepare({ session: "b", ...turn });
    expect(hidden.loaded.map((each) => each.name)).not.toContain("delete_notes");
    expect(hidden.loaded.map((each) => each.name)).toContain("read_notes");
    // the plan of the unnarrowed turn is not served from the narrowed one's cache, nor back
    expect(sift.prepare({ session: "a", mode: "off" }).loaded).toHaveLength(tools.length);

    const refused = await sift.execute({ session: "b", name: "delete_notes", ...turn });
    expect(refused.isError).toBe(true);
    expect(refused.errorCode).toBe("tool_not_found");
    expect(
      (await sift.execute({ session: "a", name: "delete_notes", mode: "off" })).isError,
    ).toBeFalsy();

    const search = { mode: "on" as const, strategy: "bridge" as const, visibility: narrowed };
    sift.prepare({ session: "c", ...search });
    const found = await sift.execute({
      session: "c",
      name: "tool_search",
      arguments: { queries: ["delete the team's notes"] },
      ...search,
    });
    expect(JSON.stringify(found.content)).not.toContain("delete_notes");
    const bridged = await sift.execute({
      session: "c",
      name: "tool_call",
      arguments: { name: "delete_notes", arguments: {} },
      ...search,
    });
    expect(bridged.isError).toBe(true);
  });
});
