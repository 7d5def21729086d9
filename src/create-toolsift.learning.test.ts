// The facade's `learning` option: searches then calls through `execute` feed the learned field.
import { describe, expect, it, vi } from "vitest";
import { deferredTool } from "../test/fixtures/deferred-tool.js";
import { createToolSift } from "./create-toolsift.js";

const tool = deferredTool;

const TOOLS = [
  tool("fill", "Fill an input element of the page with text"),
  tool("click", "Click an element of the page"),
  tool("navigate", "Open a URL in the browser"),
  tool("screenshot", "Take a screenshot of the page"),
  // enough tools that disclosure defers some and offers its meta tools
  ...Array.from({ length: 30 }, (_, index) => tool(`report_${index}`, `Builds report ${index}`)),
];

type Sift = ReturnType<typeof createToolSift>;

/** A session that rephrases, finds `fill` and calls it. */
async function rephraseThenCall(sift: Sift, session: string): Promise<void> {
  sift.prepare({ session });
  const search = (query: string) =>
    sift.execute({ session, name: "tool_search", arguments: { query } });
  await search("type into the login field");
  await search("fill input");
  const outcome = await sift.execute({ session, name: "fill", arguments: {} });
  expect(outcome.errorCode ?? "ran").toBe("ran");
}

describe("createToolSift learning", () => {
  it("learns from sessions that search and then call, and exports what it learned", async () => {
    const sift = createToolSift({ tools: TOOLS, learning: {}, disclosure: { mode: "on" } });
    expect(sift.search("type into the login field").hits[0]?.name).not.toBe("fill");
    for (const session of ["s1", "s2", "s3"]) await rephraseThenCall(sift, session);
    sift.learning?.refresh(true);
    expect(sift.search("type into the login field").hits[0]?.name).toBe("fill");
    const snapshot = sift.exportLearning();
    expect(Object.keys(snapshot?.tools ?? {})).toEqual(["fill"]);
    // a new instance starts from the snapshot
    const next = createToolSift({
      tools: TOOLS,
      learning: { initial: snapshot as NonNullable<typeof snapshot> },
    });
    expect(next.search("type into the login field").hits[0]?.name).toBe("fill");
    // erasing is immediate once the index is refreshed
    next.learning?.evidence.erase();
    next.learning?.refresh(true);
    expect(next.search("type into the login field").hits[0]?.name).not.toBe("fill");
  });

  it("takes what a search returned from the search step: learning searches nothing again", async () => {
    const searches = async (learning: boolean) => {
      const sift = createToolSift({
        tools: TOOLS,
        disclosure: { mode: "on" },
        ...(learning ? { learning: {} } : {}),
      });
      sift.prepare({ session: "s1" });
      const spy = vi.spyOn(sift.index, "search");
      await sift.execute({
        session: "s1",
        name: "tool_search",
        arguments: { queries: ["fill input", "take a screenshot"] },
      });
      return spy.mock.calls.length;
    };
    expect(await searches(true)).toBe(await searches(false));
  });

  it("credits only tools the search step returned (the model's limit), not deeper ones", async () => {
    const sift = createToolSift({
      tools: TOOLS,
      learning: {},
      disclosure: { mode: "on", strategy: "bridge" },
    });
    for (const session of ["s1", "s2", "s3"]) {
      sift.prepare({ session });
      await sift.execute({
        session,
        name: "tool_search",
        arguments: { query: "report", limit: 1 },
      });
      // one hit was shown; the engine's second is not what this search returned
      const other = sift.search("report", { limit: 2 }).hits[1]?.name as string;
      const outcome = await sift.execute({
        session,
        name: "tool_call",
        arguments: { name: other, arguments: {} },
      });
      expect(outcome.ran).toBe(true);
    }
    expect(sift.exportLearning()?.tools).toEqual({});
  });

  it("learns nothing and exports nothing without the option", async () => {
    const sift = createToolSift({ tools: TOOLS, disclosure: { mode: "on" } });
    for (const session of ["s1", "s2", "s3"]) await rephraseThenCall(sift, session);
    expect(sift.exportLearning()).toBeUndefined();
    expect(sift.search("type into the login field").hits[0]?.name).not.toBe("fill");
  });

  it("rejects a mistyped learning option naming the closest", () => {
    expect(() => createToolSift({ tools: TOOLS, learning: { minSesions: 2 } as never })).toThrow(
      /learning has no option "minSesions". Did you mean "minSessions"/,
    );
  });
});
