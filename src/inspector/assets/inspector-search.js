// The Search view: panes that run a query, show each hit's description and signature first, its
// factor table folded, and the text the model receives from tool_search with a copy button.
import {
  api,
  copyButton,
  count,
  el,
  fieldList,
  fmt,
  headedTable,
  valueNode,
} from "./inspector-common.js";

function explanationTable(explanation) {
  const table = headedTable(["term", "field", ["score", "num"]]);
  const body = el("tbody");
  for (const entry of explanation) {
    body.append(
      el(
        "tr",
        {},
        el("td", { text: entry.term }),
        el("td", { text: entry.field }),
        el("td", { class: "num", text: Number(entry.score).toFixed(3) }),
      ),
    );
  }
  table.append(body);
  return table;
}

const SHOWN = new Set([
  "name",
  "score",
  "server",
  "description",
  "summary",
  "signature",
  "explanation",
]);

function hitNode(hit, position, kind) {
  const box = el("article", { class: "hit" });
  const head = el(
    "h3",
    {},
    el("span", { class: "rank", text: `${position + 1}.` }),
    " ",
    el("code", { text: hit.name }),
  );
  if (hit.server) head.append(" ", el("span", { class: "chip", text: hit.server }));
  if (kind === "keyword")
    head.append(" ", el("span", { class: "score", text: `score ${Number(hit.score).toFixed(3)}` }));
  box.append(head);
  box.append(el("p", { class: "description", text: hit.summary ?? "" }));
  box.append(el("code", { class: "signature", text: hit.signature }));
  // words the gateway learned from use that matched: a field of their own, apart from the tool's
  // text, so a reader sees what traffic (not the description) contributed
  const learned = (hit.explanation ?? []).filter((entry) => entry.field === "learned");
  if (learned.length) {
    box.append(
      el(
        "p",
        { class: "learned-match" },
        el("strong", { text: "learned: " }),
        learned.map((entry) => entry.term).join(", "),
      ),
    );
  }
  const entries = [];
  if (hit.explanation?.length) entries.push(["term matches", explanationTable(hit.explanation)]);
  // every other field the engine returns (score parts, confidence, companions, …), generically
  for (const [key, value] of Object.entries(hit)) {
    if (!SHOWN.has(key) && value !== undefined) entries.push([key, valueNode(value)]);
  }
  if (entries.length) {
    box.append(
      el(
        "details",
        { class: "fold factors" },
        el("summary", { text: "Why it ranks here (factors)" }),
        fieldList(entries),
      ),
    );
  }
  return box;
}

function modelPanel(model) {
  // focusable: a long text scrolls, and the keyboard must reach it
  const text = el("pre", { class: "model-text", tabindex: "0", text: model.text });
  return el(
    "section",
    { class: "model-panel", "aria-label": "What the model receives" },
    el(
      "div",
      { class: "card-head" },
      el("h3", {
        text: `What the model receives from ${model.tool}${model.isError ? " (an error result)" : ""}`,
      }),
      copyButton("Copy", () => model.text, text),
    ),
    text,
  );
}

function render(output, view) {
  const result = view.result;
  const meta = [
    ["kind", result.kind],
    ["tools searched", fmt(result.total)],
  ];
  for (const [key, value] of Object.entries(result)) {
    if (!["query", "kind", "total", "hits"].includes(key)) meta.push([key, valueNode(value)]);
  }
  output.replaceChildren(
    el("p", {
      class: "summary",
      text: `${count(result.hits.length, "hit")} for “${result.query}”`,
    }),
    ...result.hits.map((hit, i) => hitNode(hit, i, result.kind)),
    modelPanel(view.model),
    el(
      "details",
      { class: "fold" },
      el("summary", { text: "Everything else the engine returned" }),
      fieldList(meta),
    ),
  );
}

export function searchPane(pane, initial) {
  const input = el("input", {
    type: "search",
    "aria-label": `Query ${pane.dataset.pane.toUpperCase()}`,
    value: initial,
  });
  const limit = el("input", {
    type: "number",
    min: "1",
    max: "25",
    value: "5",
    class: "limit",
  });
  const form = el(
    "form",
    { class: "inline-form" },
    input,
    el("label", {}, "Hits ", limit),
    el("button", { type: "submit", text: "Search" }),
  );
  const output = el("div", { class: "results", "aria-live": "polite" });
  pane.replaceChildren(form, output);
  const run = async () => {
    output.replaceChildren(el("p", { text: "Searching…" }));
    try {
      render(output, await api("/api/search", { q: input.value, limit: limit.value }));
    } catch (error) {
      output.replaceChildren(el("p", { class: "error", role: "alert", text: error.message }));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  pane.run = run;
}
