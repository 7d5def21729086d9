// @vitest-environment happy-dom
/// <reference lib="dom" />
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h, useState } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { createToolSift, type ToolSift } from "../../create-toolsift.js";
import { useSessionTools, useToolBudget, useToolProfile, useToolSearch } from "./index.js";

const tool = (name: string, description: string, profiles?: string[]): ToolDefinition => ({
  name,
  description,
  server: "ops",
  inputSchema: { type: "object", properties: {} },
  handler: () => "x".repeat(4_000),
  ...(profiles ? { profiles } : {}),
});

function makeSift(): ToolSift {
  return createToolSift({
    tools: [
      tool("read_build_log", "Read the log of a CI build.", ["coding"]),
      tool("restart_dns", "Restart the DNS service.", ["ops"]),
      tool("get_dns_status", "Get the status of the DNS service.", ["ops", "coding"]),
    ],
    policy: {
      profiles: [
        { name: "coding", description: "Code work." },
        { name: "ops", description: "Operations." },
      ],
      profile: "ops",
    },
    disclosure: { mode: "on" },
    budget: { perToolResult: 200, totalResults: 1_000 },
    tokens: "estimate",
  });
}

function SearchBox({ sift }: { sift: ToolSift }) {
  const [query, setQuery] = useState("");
  const { result, error } = useToolSearch(sift, query);
  return h(
    "div",
    null,
    h("input", {
      "aria-label": "query",
      value: query,
      onChange: (e: { target: { value: string } }) => setQuery(e.target.value),
    }),
    error ? h("p", { role: "alert" }, error.code) : null,
    h("ul", null, ...(result?.hits ?? []).map((hit) => h("li", { key: hit.name }, hit.name))),
  );
}

function Profile({ sift }: { sift: ToolSift }) {
  const { profile, profiles, setProfile } = useToolProfile(sift);
  return h(
    "div",
    null,
    h("p", { "data-testid": "profile" }, profile),
    ...profiles
      .filter((item) => !item.builtIn)
      .map((item) =>
        h(
          "button",
          { key: item.name, type: "button", onClick: () => setProfile(item.name) },
          item.name,
        ),
      ),
  );
}

function Session({ sift, id }: { sift: ToolSift; id: string }) {
  const { plan, revealed } = useSessionTools(sift, id);
  const budget = useToolBudget(sift);
  return h(
    "div",
    null,
    h("p", { "data-testid": "loaded" }, plan.loaded.map((item) => item.name).join(",") || "none"),
    h("p", { "data-testid": "revealed" }, revealed.join(",") || "none"),
    h("p", { "data-testid": "budget" }, `${budget.used}/${budget.total} in ${budget.calls}`),
  );
}

afterEach(cleanup);

describe("toolsift/react hooks", () => {
  it("useToolSearch ranks the tools the policy lets through and re-runs when the profile changes", async () => {
    const sift = makeSift();
    render(h("div", null, h(SearchBox, { sift }), h(Profile, { sift })));
    fireEvent.change(screen.getByLabelText("query"), { target: { value: "dns" } });
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(
      expect.arrayContaining(["restart_dns", "get_dns_status"]),
    );
    fireEvent.click(screen.getByText("coding"));
    expect(screen.getByTestId("profile").textContent).toBe("coding");
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "get_dns_status",
    ]);
  });

  it("useToolSearch shows a rejected query as an error instead of throwing", () => {
    const sift = makeSift();
    render(h(SearchBox, { sift }));
    fireEvent.change(screen.getByLabelText("query"), { target: { value: "/(/" } });
    expect(screen.getByRole("alert").textContent).toBe("invalid_regex");
  });

  it("useSessionTools and useToolBudget follow reveals and budget use after a call", async () => {
    const sift = makeSift();
    render(h(Session, { sift, id: "chat" }));
    expect(screen.getByTestId("revealed").textContent).toBe("none");
    expect(screen.getByTestId("budget").textContent).toBe("0/1000 in 0");
    await act(async () => {
      await sift.execute({
        session: "chat",
        name: "tool_search",
        arguments: { query: "dns status" },
      });
    });
    expect(screen.getByTestId("revealed").textContent).toContain("get_dns_status");
    expect(screen.getByTestId("loaded").textContent).toContain("get_dns_status");
    await act(async () => {
      await sift.execute({ session: "chat", name: "get_dns_status", arguments: {} });
    });
    const [used] = (screen.getByTestId("budget").textContent ?? "").split("/");
    expect(Number(used)).toBeGreaterThan(100);
    expect(Number(used)).toBeLessThanOrEqual(200);
    act(() => sift.results.reset());
    expect(screen.getByTestId("budget").textContent).toBe("0/1000 in 0");
  });

  it("renders on the server with react-dom/server", () => {
    const sift = makeSift();
    const html = renderToString(
      h("main", null, h(Profile, { sift }), h(Session, { sift, id: "ssr" })),
    );
    expect(html).toContain("ops");
    expect(html).toContain("0/1000 in 0");
  });
});
