import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedDir } from "../test/shared-dir.js";
import { createSpillStore } from "./budget/index.js";
import type { ToolDefinition } from "./catalog/index.js";
import { loadCatalogPaths } from "./catalog/node.js";
import { createToolSift } from "./create-toolsift.js";
import { ToolsiftError } from "./errors.js";

const echo = (name: string, server?: string, description = `Tool ${name}.`): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  handler: (args) => `ran ${name} with ${JSON.stringify(args)}`,
  ...(server ? { server } : {}),
});

const tools: ToolDefinition[] = [
  echo("read_file", undefined, "Read a file from disk."),
  echo("create_issue", "github", "Create a new issue in a GitHub repository."),
  echo("delete_repository", "github", "Delete a GitHub repository permanently."),
  echo("list_issues", "github", "List the issues of a GitHub repository."),
  echo("send_message", "slack", "Send a message to a Slack channel."),
  {
    ...echo("dump_logs", "ops", "Dump the full server logs."),
    handler: () => "log line with some words in it\n".repeat(4_000),
  },
];

describe("createToolSift", () => {
  it("runs the reveal loop: search, then the found tool is loaded and callable", async () => {
    const sift = createToolSift({ tools, disclosure: { mode: "on" }, tokens: "estimate" });
    const first = sift.prepare({ session: "s1" });
    expect(first.active).toBe(true);
    expect(first.loaded.map((tool) => tool.name)).toEqual(["read_file"]);
    expect(first.metaTools.map((tool) => tool.name)).toEqual(["tool_search"]);

    const found = await sift.execute({
      session: "s1",
      name: "tool_search",
      arguments: { queries: ["open a github issue"] },
    });
    expect(found.isError).toBeFalsy();
    expect(found.revealed).toContain("create_issue");

    const second = sift.prepare({ session: "s1" });
    expect(second.loaded.map((tool) => tool.name)).toContain("create_issue");
    const outcome = await sift.execute({
      session: "s1",
      name: "create_issue",
      arguments: { text: "bug" },
    });
    expect(outcome.ran).toBe(true);
    expect(outcome.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("ran create_issue"),
    });
    // another session has revealed nothing
    expect(sift.prepare({ session: "s2" }).loaded.map((tool) => tool.name)).toEqual(["read_file"]);
  });

  it("enforces the policy in search, in plans and at call time, and explains it", async () => {
    const sift = createToolSift({
      tools,
      disclosure: { mode: "on" },
      policy: { rules: [{ label: "safety", deny: ["*delete*"] }] },
      tokens: "estimate",
    });
    expect(sift.search("delete repository").hits.map((hit) => hit.name)).not.toContain(
      "delete_repository",
    );
    const plan = sift.prepare({ session: "s" });
    expect(plan.deferred.map((view) => view.name)).not.toContain("delete_repository");
    const hidden = await sift.execute({ session: "s", name: "delete_repository", arguments: {} });
    const unknown = await sift.execute({ session: "s", name: "no_such_tool", arguments: {} });
    expect(hidden.ran).toBe(false);
    expect(hidden.isError).toBe(true);
    // a hidden tool's error is the unknown tool's error: its existence does not leak
    expect(hidden.errorCode).toBe(unknown.errorCode);
    const decision = sift.explain("delete_repository");
    expect(decision).toMatchObject({
      visible: false,
      layer: "safety",
      rule: "deny",
      selector: "*delete*",
    });
    expect(() => sift.requireTools(["delete_repository"])).toThrow(/hidden by policy/);
  });

  it("cuts an oversized result to the per-result budget and lets the model page the rest", async () => {
    const spill = createSpillStore();
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: { perToolResult: 300, spill },
    });
    const outcome = await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    const text = outcome.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("\n");
    expect(sift.tokenCounter.count(text)).toBeLessThanOrEqual(300);
    const id = /spill_[A-Za-z0-9_]+/.exec(text)?.[0];
    expect(id).toBeDefined();
    const page = await sift.execute({
      session: "s",
      name: "tool_result_read",
      arguments: { id, page: 2 },
    });
    expect(page.isError).toBeFalsy();
    expect(page.structuredContent).toMatchObject({ id, page: 2 });
  });

  it("tracks the loop total and reports when it is hit", async () => {
    const hits: string[] = [];
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: {
        perToolResult: 500,
        totalResults: 600,
        onBudgetHit: (event) => hits.push(event.kind),
      },
      tokens: "estimate",
    });
    await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    expect(sift.results.used).toBeLessThanOrEqual(600);
    expect(hits).toContain("total");
    sift.results.reset();
    expect(sift.results.used).toBe(0);
  });

  it("rejects a bad token counter option with a clear error", () => {
    expect(() => createToolSift({ tokens: "bpe" as never })).toThrow(ToolsiftError);
  });
});

describe("createToolSift on the 20 real catalogs", () => {
  let real: ToolDefinition[] = [];
  beforeAll(async () => {
    const loaded = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
      duplicates: "qualify",
    });
    real = [...loaded.tools];
  });

  it("keeps the first turn small and returns the same plan object while nothing changes", () => {
    const sift = createToolSift({ tools: real, tokens: "estimate" });
    const plan = sift.prepare({ session: "s", contextWindow: 200_000 });
    expect(plan.active).toBe(true);
    expect(plan.stats.visible).toBe(1_371);
    const firstTurn = plan.stats.loadedTokens + plan.stats.metaTokens + plan.stats.listingTokens;
    expect(firstTurn / plan.stats.allTokens).toBeLessThan(0.01);
    expect(sift.prepare({ session: "s", contextWindow: 200_000 })).toBe(plan);
    sift.catalog.add(echo("brand_new_tool", "extra"));
    const next = sift.prepare({ session: "s", contextWindow: 200_000 });
    expect(next).not.toBe(plan);
    expect(next.stats.visible).toBe(1_372);
  });
});
