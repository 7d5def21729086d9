// The inspector page: tabs, the catalog, search and cost views; Sessions live in
// inspector-sessions.js. Text is built with textContent (tool data is never parsed as HTML).
import {
  $,
  api,
  el,
  fieldList,
  fmt,
  showError,
  state,
  svg,
  valueNode,
} from "./inspector-common.js";
import { loadSessions, pollSessions, renderSessions } from "./inspector-sessions.js";

/** A horizontal bar chart with every value written beside its bar (readable without colour). */
function barChart(title, rows, series) {
  const rowHeight = 16 * series.length + 8;
  const labelWidth = 190;
  const width = 760;
  const max = Math.max(1, ...rows.flatMap((row) => series.map((s) => row[s.key])));
  const chart = svg("svg", {
    role: "img",
    "aria-label": title,
    viewBox: `0 0 ${width} ${rows.length * rowHeight + 24}`,
    width,
  });
  chart.append(svg("title", {}, title));
  series.forEach((s, i) => {
    chart.append(
      svg("rect", { x: labelWidth + i * 170, y: 2, width: 10, height: 10, class: s.cls }),
    );
    chart.append(svg("text", { x: labelWidth + 14 + i * 170, y: 11 }, s.label));
  });
  rows.forEach((row, r) => {
    const top = 22 + r * rowHeight;
    chart.append(svg("text", { x: 0, y: top + rowHeight / 2 }, row.label.slice(0, 30)));
    series.forEach((s, i) => {
      const value = row[s.key];
      const length = Math.max(1, ((width - labelWidth - 150) * value) / max);
      const y = top + i * 16;
      chart.append(svg("rect", { x: labelWidth, y, width: length, height: 13, class: s.cls }));
      chart.append(
        svg("text", { x: labelWidth + length + 4, y: y + 11 }, `${fmt(value)} ${s.unit ?? ""}`),
      );
    });
  });
  return chart;
}

// ---- catalog -------------------------------------------------------------------------------

function toolTable(server, reasons, filter) {
  const table = el("table");
  table.append(
    el(
      "tr",
      {},
      el("th", { text: "tool" }),
      el("th", { class: "num", text: "tokens" }),
      el("th", { text: "state" }),
      el("th", { text: "policy layer · rule" }),
      el("th", { text: "why" }),
    ),
  );
  for (const tool of server.tools) {
    if (filter && !tool.name.toLowerCase().includes(filter)) continue;
    const rule = tool.layer
      ? `${tool.layer} · ${tool.rule}${tool.selector ? ` (${tool.selector})` : ""}`
      : "";
    table.append(
      el(
        "tr",
        {},
        el("td", {}, el("code", { text: tool.name })),
        el("td", { class: "num", text: fmt(tool.tokens) }),
        el("td", { class: `state state-${tool.state}`, text: tool.state }),
        el("td", { text: rule }),
        el("td", { text: reasons[tool.reason] ?? "" }),
      ),
    );
  }
  return table;
}

function renderCatalog() {
  const view = state.catalog;
  if (!view) return;
  const c = view.counts;
  $("#catalog-summary").textContent =
    `${fmt(view.total)} tools on ${view.servers.length} servers under profile "${view.profile}": ` +
    `${fmt(c.loaded)} loaded, ${fmt(c.deferred)} deferred (found through search), ${fmt(c.hidden)} hidden by policy; ` +
    `${c.meta} meta tool(s). Disclosure ${view.disclosure.active ? "on" : "off"}: ${view.disclosure.reason}`;
  $("#catalog-chart").replaceChildren(
    barChart(
      "Tokens per server",
      view.servers.map((s) => ({
        label: `${s.server} (${s.tools.length})`,
        tokens: s.tokens,
        visibleTokens: s.visibleTokens,
      })),
      [
        { key: "tokens", label: "all its tools", cls: "bar-full", unit: "tokens" },
        {
          key: "visibleTokens",
          label: `visible under "${view.profile}"`,
          cls: "bar-first",
          unit: "tokens",
        },
      ],
    ),
  );
  const filter = $("#catalog-filter").value.trim().toLowerCase();
  const list = [];
  for (const server of view.servers) {
    const shown = filter
      ? server.tools.filter((t) => t.name.toLowerCase().includes(filter))
      : server.tools;
    if (filter && shown.length === 0) continue;
    const count = (s) => shown.filter((t) => t.state === s).length;
    const details = el(
      "details",
      { "data-server": server.server },
      el("summary", {
        text: `${server.server}: ${shown.length} tools, ${fmt(server.tokens)} tokens — ${count("loaded")} loaded, ${count("deferred")} deferred, ${count("hidden")} hidden`,
      }),
    );
    if (filter) details.open = true;
    // the table is built on first open: 1,371 rows at once would slow the first paint
    const fill = () => {
      if (details.open && details.childElementCount === 1) {
        details.append(toolTable(server, view.reasons, filter));
      }
    };
    details.addEventListener("toggle", fill);
    fill();
    list.push(details);
  }
  $("#catalog-servers").replaceChildren(...list);
}

async function loadCatalog() {
  state.catalog = await api("/api/catalog");
  renderCatalog();
}

// ---- search --------------------------------------------------------------------------------

function explanationTable(explanation) {
  const table = el("table");
  table.append(
    el(
      "tr",
      {},
      el("th", { text: "term" }),
      el("th", { text: "field" }),
      el("th", { class: "num", text: "score" }),
    ),
  );
  for (const entry of explanation) {
    table.append(
      el(
        "tr",
        {},
        el("td", { text: entry.term }),
        el("td", { text: entry.field }),
        el("td", { class: "num", text: Number(entry.score).toFixed(3) }),
      ),
    );
  }
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
  const score = kind === "keyword" ? ` — score ${Number(hit.score).toFixed(3)}` : "";
  box.append(
    el("h3", {
      text: `${position + 1}. ${hit.name}${hit.server ? ` [${hit.server}]` : ""}${score}`,
    }),
  );
  box.append(el("code", { class: "signature", text: hit.signature }));
  box.append(el("p", { text: hit.summary ?? "" }));
  const entries = [];
  if (hit.explanation?.length) entries.push(["term matches", explanationTable(hit.explanation)]);
  // every other field the engine returns (score parts, confidence, companions, …), generically
  for (const [key, value] of Object.entries(hit)) {
    if (!SHOWN.has(key) && value !== undefined) entries.push([key, valueNode(value)]);
  }
  if (entries.length) box.append(fieldList(entries));
  return box;
}

function searchPane(pane, initial) {
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
    "aria-label": "Hits",
    class: "limit",
  });
  const form = el(
    "form",
    {},
    input,
    el("label", {}, "Hits ", limit),
    el("button", { type: "submit", text: "Search" }),
  );
  const output = el("div", { class: "results", "aria-live": "polite" });
  pane.replaceChildren(form, output);
  const run = async () => {
    output.replaceChildren(el("p", { text: "Searching…" }));
    try {
      const view = await api("/api/search", { q: input.value, limit: limit.value });
      const result = view.result;
      const meta = [
        ["kind", result.kind],
        ["tools searched", fmt(result.total)],
      ];
      for (const [key, value] of Object.entries(result)) {
        if (!["query", "kind", "total", "hits"].includes(key)) meta.push([key, valueNode(value)]);
      }
      output.replaceChildren(
        el("p", { class: "summary", text: `${result.hits.length} hit(s) for "${result.query}"` }),
        fieldList(meta),
        ...result.hits.map((hit, i) => hitNode(hit, i, result.kind)),
        el("h3", {
          text: `What the model receives from ${view.model.tool}${view.model.isError ? " (an error result)" : ""}`,
        }),
        el("pre", { class: "model-text", text: view.model.text }),
      );
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

// ---- cost ----------------------------------------------------------------------------------

async function loadCost() {
  const view = await api("/api/cost", { reveal: $("#cost-reveal").value });
  $("#cost-summary").textContent =
    `${fmt(view.visible)} tools visible under profile "${view.profile}". ` +
    (view.revealed.length
      ? `After reveals: the ${view.revealed.length} tools a tool_search for "${view.reveal}" revealed (${view.revealed.join(", ")}).`
      : "No tools revealed: after reveals equals the first turn.");
  const series = [
    { key: "all", label: "all loaded", cls: "bar-full", unit: "tokens" },
    { key: "firstTurn", label: "first turn", cls: "bar-first", unit: "tokens" },
    { key: "afterReveals", label: "after reveals", cls: "bar-after", unit: "tokens" },
  ];
  $("#cost-chart").replaceChildren(
    barChart(
      "Tool tokens per provider format",
      view.formats.map((f) => ({ ...f, label: f.name })),
      series,
    ),
  );
  const table = el("table");
  table.append(
    el(
      "tr",
      {},
      el("th", { text: "format" }),
      ...series.map((s) => el("th", { class: "num", text: s.label })),
      el("th", { class: "num", text: "first-turn saving" }),
    ),
  );
  for (const f of view.formats) {
    const saving = f.all ? `${((1 - f.firstTurn / f.all) * 100).toFixed(1)}%` : "—";
    table.append(
      el(
        "tr",
        {},
        el("td", { text: f.name }),
        ...series.map((s) => el("td", { class: "num", text: fmt(f[s.key]) })),
        el("td", { class: "num", text: saving }),
      ),
    );
  }
  $("#cost-table").replaceChildren(table);
}

// ---- shell ---------------------------------------------------------------------------------

const loaders = { catalog: loadCatalog, search: null, cost: loadCost, sessions: loadSessions };
const loaded = new Set();

async function refresh(name) {
  try {
    showError(null);
    if (name === "search")
      for (const pane of document.querySelectorAll(".pane:not([hidden])")) await pane.run?.();
    else await loaders[name]();
    loaded.add(name);
  } catch (error) {
    showError(error);
  }
}

function selectTab(tab, focus) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
  }
  if (focus) tab.focus();
  const name = tab.id.replace("tab-", "");
  if (!loaded.has(name)) refresh(name);
}

async function start() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  for (const tab of tabs) {
    tab.addEventListener("click", () => selectTab(tab, false));
    // arrow keys move between tabs, as in the WAI-ARIA tabs pattern
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      const jump = { Home: 0, End: tabs.length - 1 }[event.key];
      if (step === undefined && jump === undefined) return;
      event.preventDefault();
      const index = jump ?? (tabs.indexOf(tab) + step + tabs.length) % tabs.length;
      selectTab(tabs[index], true);
    });
  }
  searchPane($('.pane[data-pane="a"]'), "create issue");
  searchPane($('.pane[data-pane="b"]'), "/create_.*issue/");
  $("#compare").addEventListener("change", (event) => {
    const pane = $('.pane[data-pane="b"]');
    pane.hidden = !event.target.checked;
    $(".panes").classList.toggle("compare", event.target.checked);
    if (event.target.checked) pane.run();
  });
  $("#catalog-filter").addEventListener("input", renderCatalog);
  $("#server-filter").addEventListener("change", renderSessions);
  $("#session-filter").addEventListener("change", renderSessions);
  $("#cost-form").addEventListener("submit", (event) => {
    event.preventDefault();
    refresh("cost");
  });
  try {
    await loadCatalog();
    loaded.add("catalog");
  } catch (error) {
    showError(error);
    return;
  }
  // polled from the start, so a gateway that goes away is reported whichever view is open
  loaded.add("sessions");
  pollSessions();
  const select = $("#profile");
  select.replaceChildren(
    ...state.catalog.profiles.map((name) => el("option", { value: name, text: name })),
  );
  select.value = state.catalog.profile;
  state.profile = state.catalog.profile;
  select.addEventListener("change", () => {
    state.profile = select.value;
    loaded.clear();
    const current = document.querySelector('[role="tab"][aria-selected="true"]');
    refresh(current.id.replace("tab-", ""));
  });
}

start();
