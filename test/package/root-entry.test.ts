import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");

/** Follows static imports from `entry` and returns every module specifier reached. */
function importGraph(entry: string): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const pending = [entry];
  const importPattern = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/g;
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] as string;
      if (specifier.startsWith(".")) {
        pending.push(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      } else {
        external.add(specifier);
      }
    }
  }
  return { files, external };
}

describe("the root entry", () => {
  const { files, external } = importGraph(path.join(srcDir, "index.ts"));

  it("statically loads no Node-only module", () => {
    expect([...external].filter((name) => name.startsWith("node:"))).toEqual([]);
  });

  it("never loads the MCP SDK, a provider SDK or React", () => {
    const optional = [...external].filter((name) =>
      /^(@modelcontextprotocol\/|@anthropic-ai\/|openai|@google\/genai|react)/.test(name),
    );
    expect(optional).toEqual([]);
  });

  it("does not reach the CLI, the gateway or the file loaders", () => {
    const relative = [...files].map((file) => path.relative(srcDir, file));
    expect(
      relative.filter((file) => /^(cli|mcp)\//.test(file) || file === "catalog/node.ts"),
    ).toEqual([]);
    // sanity: the walk did follow the graph
    expect(relative).toContain("search/tool-search-index.ts");
  });
});
