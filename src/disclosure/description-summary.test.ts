import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { capture } from "../cli/__tests__/capture.js";
import { runCli } from "../cli/run-cli.js";
import { createToolSift } from "../create-toolsift.js";
import { createInspectorModel } from "../inspector/inspector-model.js";
import { firstSentence } from "../text/index.js";

// the shape of all 13 CircleCI tools: a blank first line, then indented text
const indented =
  "\n    This tool lists the failed jobs of a CircleCI pipeline. Use it after a red build.\n\n    CRITICAL REQUIREMENTS:\n    1. Pass the project slug.";

function tool(name: string, description: string): ToolDefinition {
  return {
    name,
    description,
    inputSchema: { type: "object", properties: { slug: { type: "string" } } },
    server: "circleci",
  };
}

const tools = [
  tool("get_failed_jobs", indented),
  ...Array.from({ length: 40 }, (_, index) => tool(`other_tool_${index}`, `Other tool ${index}.`)),
];

describe("a description that starts with whitespace or a blank line", () => {
  it("summarises as its first sentence with text", () => {
    expect(firstSentence(indented, 200)).toBe(
      "This tool lists the failed jobs of a CircleCI pipeline.",
    );
    expect(firstSentence("  \r\n\t\n  Lists items\nmore", 200)).toBe("Lists items");
    // a line of only invisible characters has no text either
    expect(firstSentence("\u200B\u202E\nReads a file. Then more.", 200)).toBe("Reads a file.");
    expect(firstSentence(" \n \n ", 200)).toBe("");
  });

  it("shows that sentence in tool_search lines", async () => {
    const sift = createToolSift({ tools, disclosure: { strategy: "bridge" } });
    sift.prepare({ session: "s", contextWindow: 8_000 });
    const outcome = await sift.execute({
      session: "s",
      name: sift.disclosure.metaToolNames.search,
      arguments: { queries: ["failed jobs circleci pipeline"] },
    });
    const text = outcome.content.map((part) => ("text" in part ? part.text : "")).join("\n");
    const line = text.split("\n").find((row) => row.includes("get_failed_jobs"));
    expect(line).toContain("This tool lists the failed jobs");
  });

  it("shows that sentence in the CLI's search output", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "toolsift-summary-")), "tools.json");
    writeFileSync(file, JSON.stringify(tools.slice(0, 3)));
    const io = capture();
    expect(await runCli(["search", "failed jobs", "--catalog", file], io)).toBe(0);
    const lines = io.out.split("\n");
    const at = lines.findIndex((row) => row.includes("get_failed_jobs"));
    expect(lines[at + 1]?.trim()).toBe("This tool lists the failed jobs of a CircleCI pipeline.");
  });

  it("gives the inspector's search hits that sentence as their summary", async () => {
    const model = createInspectorModel(tools);
    const { result } = await model.search("failed jobs circleci");
    expect(result.hits[0]).toMatchObject({
      name: "get_failed_jobs",
      summary: "This tool lists the failed jobs of a CircleCI pipeline.",
    });
  });
});
