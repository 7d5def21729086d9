import { describe, expect, it } from "vitest";
import { arrayCatalog, mcpTool, substringSearch, textOf } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import { unknownToolMessage } from "../meta/meta-handlers.js";
import { buildPlanBasis } from "../plan/plan-basis.js";
import { checkArguments } from "./validate-arguments.js";

/** Whether UTF-8 round-trips `text`: false when it holds a lone surrogate. */
const encodable = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text;
const EMOJI = "\u{1F600}";

function setup() {
  const tools = [mcpTool("create_issue"), mcpTool("list_issues")];
  const catalog = arrayCatalog(tools);
  return createDisclosure({
    catalog,
    search: substringSearch(catalog),
    mode: "on",
    strategy: "bridge",
  });
}

describe("model text echoed back is well formed", () => {
  it("tool_search replaces a lone surrogate of a query in its labels and structured matches", async () => {
    const result = await setup().execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: ["issue \ud83d", "\udc00 nothing"] },
    });
    expect(encodable(textOf(result))).toBe(true);
    const matches = (result.structuredContent as { matches: { query: string }[] }).matches;
    expect(matches.map((match) => match.query)).toEqual(["issue \ufffd", "\ufffd nothing"]);
  });

  it("an unknown tool name with a lone surrogate is quoted well formed", async () => {
    const disclosure = setup();
    for (const name of ["tool_x\ud800", "tool_describe"]) {
      const args = name === "tool_describe" ? { names: ["lone\udfff"] } : {};
      const result = await disclosure.execute({ session: "s", name, arguments: args });
      expect(result.isError).toBe(true);
      expect(encodable(textOf(result))).toBe(true);
      expect(textOf(result)).toContain("\ufffd");
    }
  });

  it("a quoted schema cut at 300 characters never splits a surrogate pair", () => {
    const tool = mcpTool("pick", "srv", {
      inputSchema: {
        type: "object",
        properties: { v: { type: "string", enum: ["a", EMOJI.repeat(200)] } },
      },
    });
    const check = checkArguments(tool, { v: "b" });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toContain("…");
    expect(encodable(check.message)).toBe(true);
  });

  it("a repair note quoting a string value never splits a surrogate pair", () => {
    const tool = mcpTool("tags", "srv", {
      inputSchema: {
        type: "object",
        properties: { tags: { type: "array", items: { type: "string" } } },
      },
    });
    const check = checkArguments(tool, { tags: `[ "${EMOJI.repeat(30)}"]` });
    expect(check.ok).toBe(true);
    expect(check.repairs).toHaveLength(1);
    expect(encodable(check.repairs?.[0] ?? "")).toBe(true);
  });
});

describe("did-you-mean over a large catalog", () => {
  it("lists the visible names once per basis, not once per unknown name", () => {
    const tools = Array.from({ length: 1_000 }, (_, index) => mcpTool(`tool_${index}`));
    const names = { search: "tool_search", describe: "tool_describe", call: "tool_call" };
    const basis = buildPlanBasis(tools, undefined, undefined, names);
    let listed = 0;
    const visible = basis.visible as Map<string, unknown>;
    const keys = visible.keys.bind(visible);
    visible.keys = () => {
      listed += 1;
      return keys();
    };
    for (let call = 0; call < 5; call += 1) {
      expect(unknownToolMessage(`tool_${call}x`, basis)).toContain(`tool_${call}`);
    }
    expect(listed).toBeLessThanOrEqual(1);
  });
});
