/**
 * A small React page over a ToolSift instance with `toolsift/react`: a search box, the policy
 * profile picker, the tools a chat session sees this turn, and the result-token budget. Written
 * with `createElement` so it needs no JSX setup, and platform-neutral: `react-page-server.ts`
 * renders it with `react-dom/server`, `react-page-browser.ts` mounts it in a browser.
 */
import { createElement as h, useState } from "react";
import {
  useSessionTools,
  useToolBudget,
  useToolProfile,
  useToolSearch,
} from "../src/adapters/react/index.js";
import { createToolSift, type ToolDefinition, type ToolSift } from "../src/index.js";

function SearchPanel({ sift }: { sift: ToolSift }) {
  const [query, setQuery] = useState("create a pull request");
  const { result, error } = useToolSearch(sift, query, { limit: 8 });
  return h(
    "section",
    { "aria-label": "search" },
    h("h2", null, "Search"),
    h("input", {
      "aria-label": "query",
      value: query,
      onChange: (event: { target: { value: string } }) => setQuery(event.target.value),
    }),
    error ? h("p", { role: "alert" }, error.message) : null,
    h(
      "ol",
      null,
      ...(result?.hits ?? []).map((hit) =>
        h("li", { key: hit.name }, `${hit.name} — ${hit.tool.description.slice(0, 80)}`),
      ),
    ),
  );
}

function ProfilePicker({ sift }: { sift: ToolSift }) {
  const { profile, profiles, setProfile } = useToolProfile(sift);
  return h(
    "label",
    null,
    "Profile ",
    h(
      "select",
      {
        "aria-label": "profile",
        value: profile,
        onChange: (event: { target: { value: string } }) => setProfile(event.target.value),
      },
      ...profiles.map((item) => h("option", { key: item.name, value: item.name }, item.name)),
    ),
  );
}

function SessionPanel({ sift, session }: { sift: ToolSift; session: string }) {
  const { plan, revealed } = useSessionTools(sift, session, { contextWindow: 200_000 });
  const budget = useToolBudget(sift);
  return h(
    "section",
    { "aria-label": "session" },
    h("h2", null, `Session ${session}`),
    h(
      "p",
      { "data-testid": "plan" },
      `${plan.stats.visible} visible, ${plan.loaded.length} loaded, ${plan.deferred.length} deferred, ${plan.stats.loadedTokens + plan.stats.metaTokens} tokens of definitions`,
    ),
    h("p", { "data-testid": "revealed" }, `Revealed: ${revealed.join(", ") || "none yet"}`),
    h(
      "p",
      { "data-testid": "budget" },
      `Result tokens: ${budget.used} of ${budget.total} (${budget.calls} calls)`,
    ),
  );
}

/** The page: search, profile and one session's view. */
export function ToolSiftPage({ sift, session }: { sift: ToolSift; session: string }) {
  return h(
    "main",
    null,
    h("h1", null, `toolsift — ${sift.catalog.size} tools`),
    h(ProfilePicker, { sift }),
    h(SearchPanel, { sift }),
    h(SessionPanel, { sift, session }),
  );
}

/** The ToolSift the page shows, over the given tools (the real catalogs in the examples). */
export function createPageSift(tools: readonly ToolDefinition[]): ToolSift {
  return createToolSift({
    tools,
    disclosure: { mode: "auto" },
    budget: { totalResults: 8_000 },
  });
}
