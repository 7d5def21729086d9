// The incidental-match rule: a query of several words whose hits each hold only one of them
// gets no answer-like hits (issue 26).
import { describe, expect, it } from "vitest";
import { deferredTool } from "../../../test/fixtures/deferred-tool.js";
import { createToolSift } from "../../create-toolsift.js";
import { ToolSearchIndex } from "../tool-search-index.js";

const tool = deferredTool;

// every word of "execute shell code" is in some tool, and no tool holds two of them
const TOOLS = [
  tool("start_pipeline", "Run a CI pipeline"),
  tool("open_terminal_tab", "Open a shell tab in the terminal app"),
  tool("list_slash_commands", "List the slash command palette entries"),
  tool("schedule_job", "Execute a job at a given time"),
  tool("format_snippet", "Format a code snippet"),
  tool("read_file", "Read a file from disk"),
];

describe("incidental single-word matches", () => {
  it("are none when no hit holds more than one of the query's words", () => {
    const index = new ToolSearchIndex();
    index.addAll(TOOLS);
    const result = index.search("execute shell code");
    expect(result.hits.length).toBeGreaterThan(2);
    expect(result.confidence).toBe("none");
    expect(result.hits.map((hit) => hit.confidence?.level)).toEqual(result.hits.map(() => "none"));
  });

  it("leave a hit that holds two of the words, and short queries, as they were", () => {
    const index = new ToolSearchIndex();
    index.addAll([...TOOLS, tool("run_shell_code", "Execute shell code")]);
    const result = index.search("execute shell code");
    expect(result.hits[0]?.name).toBe("run_shell_code");
    expect(result.confidence).not.toBe("none");
    const short = new ToolSearchIndex();
    short.addAll(TOOLS);
    // two words: one tool each is the most a two-word query can ask for of different tools
    expect(short.search("format code").confidence).not.toBe("none");
  });

  it("are neither listed as matches nor revealed by the search meta tool", async () => {
    const sift = createToolSift({ tools: TOOLS, disclosure: { mode: "on" } });
    sift.prepare({ session: "s1" });
    const outcome = await sift.execute({
      session: "s1",
      name: "tool_search",
      arguments: { query: "execute shell code" },
    });
    const text = outcome.content.map((part) => ("text" in part ? part.text : "")).join("");
    expect(text).toContain("no strong match; closest:");
    expect(text).toContain("not revealed");
    expect(outcome.revealed).toEqual([]);
  });
});
