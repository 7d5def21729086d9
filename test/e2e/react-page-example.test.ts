// @vitest-environment happy-dom
/// <reference lib="dom" />
// The React example page (examples/react-page.ts) on the 20 real catalogs, rendered with Testing
// Library: typing a query re-ranks, switching the profile hides tools, a search call by the
// model shows up as reveals and a call as budget use.
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { createPageSift, ToolSiftPage } from "../../examples/react-page.js";
import { loadExampleTools } from "../../examples/react-page-server.js";

afterEach(cleanup);

describe("examples/react-page.ts", () => {
  it("searches, filters by profile and follows a session's reveals", async () => {
    const sift = createPageSift(await loadExampleTools());
    render(h(ToolSiftPage, { sift, session: "page" }));
    const hits = () =>
      within(screen.getByRole("region", { name: "search" }))
        .queryAllByRole("listitem")
        .map((item) => item.textContent ?? "");
    expect(hits()[0]).toMatch(/create_pull_request/);

    fireEvent.change(screen.getByLabelText("query"), { target: { value: "take a screenshot" } });
    expect(hits().some((hit) => /screenshot/.test(hit))).toBe(true);

    const before = screen.getByTestId("plan").textContent;
    fireEvent.change(screen.getByLabelText("profile"), { target: { value: "minimal" } });
    expect(screen.getByTestId("plan").textContent).not.toBe(before);

    fireEvent.change(screen.getByLabelText("profile"), { target: { value: "full" } });
    await act(async () => {
      await sift.execute({
        session: "page",
        name: "tool_search",
        arguments: { query: "list pull requests" },
      });
    });
    expect(screen.getByTestId("revealed").textContent).toMatch(/pull_request/);
  });
});
