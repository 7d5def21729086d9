/**
 * A call of a plain tool skips the turn plan (only meta tools need to know what the plan offers),
 * while meta tools, hidden tools and unknown names answer as before.
 */
import { describe, expect, it } from "vitest";
import { arrayCatalog, coreTool, substringSearch } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";

function setup() {
  const tools = [
    coreTool("list_issues", { handler: () => "issues", inputSchema: { type: "object" } }),
    coreTool("secret_tool", { handler: () => "secret", inputSchema: { type: "object" } }),
  ];
  const catalog = arrayCatalog(tools);
  return createDisclosure({
    catalog,
    search: substringSearch(catalog),
    isVisible: (tool) => tool.name !== "secret_tool",
    // a versioned catalog, so every planned turn is kept in the plan cache
    catalogVersion: () => "v1",
    visibilityVersion: () => "v1",
  });
}

const textOf = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content.map((block) => block.text ?? "").join("");

describe("plain tool calls", () => {
  it("run without planning the turn, even when the call carries turn settings", async () => {
    const disclosure = setup();
    const outcome = await disclosure.execute({
      session: "s",
      name: "list_issues",
      arguments: {},
      mode: "on",
      contextWindow: 90_000,
    });
    expect(outcome).toMatchObject({ ran: true, route: "direct" });
    expect(textOf(outcome)).toBe("issues");
    // the plan cache holds a plan for every turn planned: none was
    expect(disclosure.metrics().caches.plans.size).toBe(0);
  });

  it("still refuse a hidden tool like an unknown one, naming the offered search tool", async () => {
    const disclosure = setup();
    const hidden = await disclosure.execute({ session: "s", name: "secret_tool", arguments: {} });
    const unknown = await disclosure.execute({ session: "s", name: "no_such", arguments: {} });
    expect(hidden).toMatchObject({ ran: false, errorCode: "tool_not_found" });
    expect(textOf(hidden)).toBe(textOf(unknown).replace("no_such", "secret_tool"));
    const typo = await disclosure.execute({
      session: "s",
      name: "tool_serch",
      arguments: {},
      mode: "on",
      keepMetaTools: true,
    });
    expect(textOf(typo)).toContain("tool_search");
  });

  it("still run a meta tool the plan offers, and refuse one it does not offer", async () => {
    const disclosure = setup();
    const search = await disclosure.execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: ["issues"] },
      mode: "on",
      keepMetaTools: true,
    });
    expect(search).toMatchObject({ ran: true, route: "meta" });
    const off = await disclosure.execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: ["issues"] },
      mode: "off",
    });
    expect(off).toMatchObject({ ran: false, errorCode: "tool_not_found" });
  });
});
