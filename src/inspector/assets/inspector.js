// The inspector page: tabs, the overview (what the tools cost, what toolsift saves) and the
// catalog; Search and Sessions live in their own modules. Text is built with textContent (tool
// data is never parsed as HTML).
import { costChart, saving, serverChart } from "./inspector-charts.js";
import { $, api, count, el, fmt, headedTable, showError, state } from "./inspector-common.js";
import { loadLearned } from "./inspector-learned.js";
import { searchPane } from "./inspector-search.js";
import { loadSessions, pollSessions, renderSessions } from "./inspector-sessions.js";

// ---- overview ------------------------------------------------------------------------------

const range = (values) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? fmt(low) : `${fmt(low)}–${fmt(high)}`;
};

function renderOverviewCatalog() {
  const view = state.catalog;
  $("#disclosure-words").textContent = view.disclosure.words;
  $("#catalog-chart").replaceChildren(serverChart(view.servers, view.profile));
}

async function loadCost() {
  const view = await api("/api/cost", { reveal: $("#cost-reveal").value });
  const all = view.formats.map((f) => f.all);
  const first = view.formats.map((f) => f.firstTurn);
  const best = Math.min(...view.formats.map((f) => (f.all ? f.firstTurn / f.all : 1)));
  $("#headline").replaceChildren(
    el("span", {}, `Every one of the ${count(view.visible, "visible tool")} loaded costs `),
    el("strong", { text: `${range(all)} tokens` }),
    " per request, depending on the provider. toolsift's first turn sends ",
    el("strong", { text: `${range(first)} tokens` }),
    `: up to ${saving(best, 1)} less.`,
  );
  $("#cost-summary").textContent = view.revealed.length
    ? `After reveals: the ${count(view.revealed.length, "tool")} a tool_search for “${view.reveal}” revealed (${view.revealed.join(", ")}) join the request.`
    : "The search revealed no tool: after reveals equals the first turn.";
  $("#cost-chart").replaceChildren(costChart(view.formats));
  const table = headedTable([
    "format",
    ...["every tool loaded", "first turn", "after reveals", "first-turn saving"].map((text) => [
      text,
      "num",
    ]),
  ]);
  const body = el("tbody");
  for (const f of view.formats) {
    body.append(
      el(
        "tr",
        {},
        el("th", { scope: "row", text: f.name }),
        ...[f.all, f.firstTurn, f.afterReveals].map((n) =>
          el("td", { class: "num", text: fmt(n) }),
        ),
        el("td", { class: "num", text: f.all ? saving(f.firstTurn, f.all) : "—" }),
      ),
    );
  }
  table.append(body);
  $("#cost-table").replaceChildren(table);
}

async function loadOverview() {
  await Promise.all([state.catalog ? undefined : loadCatalog(), loadCost()]);
}

// ---- catalog -------------------------------------------------------------------------------

/** The server's tools as a table, one group of rows per policy reason (said once, not per row). */
function toolTable(tools, reasons) {
  const table = headedTable(["tool", ["tokens", "num"], "state", "policy layer · rule"], {
    class: "tools",
  });
  const groups = new Map();
  for (const tool of tools) {
    const group = groups.get(tool.reason) ?? [];
    group.push(tool);
    groups.set(tool.reason, group);
  }
  for (const [reason, group] of groups) {
    const body = el(
      "tbody",
      {},
      el(
        "tr",
        { class: "group" },
        el("th", {
          scope: "colgroup",
          colspan: "4",
          text: `Why (${count(group.length, "tool")}): ${reasons[reason] ?? "no reason given"}`,
        }),
      ),
    );
    for (const tool of group) {
      const rule = tool.layer
        ? `${tool.layer} · ${tool.rule}${tool.selector ? ` (${tool.selector})` : ""}`
        : "";
      body.append(
        el(
          "tr",
          {},
          el("td", {}, el("code", { text: tool.name })),
          el("td", { class: "num", text: fmt(tool.tokens) }),
          el("td", {}, el("span", { class: `state state-${tool.state}`, text: tool.state })),
          el("td", { text: rule }),
        ),
      );
    }
    table.append(body);
  }
  return table;
}

function serverSummary(server, shown, filtered) {
  const tokens = shown.reduce((sum, tool) => sum + tool.tokens, 0);
  const states = ["loaded", "deferred", "hidden"]
    .map((s) => [s, shown.filter((t) => t.state === s).length])
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${fmt(n)} ${s}`);
  return el(
    "summary",
    {},
    el("strong", { text: server.server }),
    el("span", {
      class: "meta",
      text: ` ${count(shown.length, "tool")}${filtered ? ` of ${fmt(server.tools.length)}` : ""} · ${fmt(tokens)} tokens${filtered ? ` (of ${fmt(server.tokens)})` : ""} · ${states.join(", ")}`,
    }),
  );
}

function renderCatalog() {
  const view = state.catalog;
  if (!view) return;
  const c = view.counts;
  $("#catalog-summary").textContent =
    `${fmt(view.total)} tools on ${count(view.servers.length, "server")} under profile "${view.profile}": ` +
    `${fmt(c.loaded)} loaded, ${fmt(c.deferred)} deferred (found through search), ${fmt(c.hidden)} hidden by policy; ` +
    `${count(c.meta, "meta tool")}. ${view.disclosure.words}`;
  renderOverviewCatalog();
  const filter = $("#catalog-filter").value.trim().toLowerCase();
  const list = [];
  for (const server of view.servers) {
    const shown = filter
      ? server.tools.filter((t) => t.name.toLowerCase().includes(filter))
      : server.tools;
    if (filter && shown.length === 0) continue;
    const details = el(
      "details",
      { class: "server", "data-server": server.server },
      serverSummary(server, shown, Boolean(filter)),
    );
    if (filter) details.open = true;
    // the table is built on first open: 1,371 rows at once would slow the first paint
    const fill = () => {
      if (details.open && details.childElementCount === 1) {
        details.append(
          el("div", { class: "table-wrap", tabindex: "0" }, toolTable(shown, view.reasons)),
        );
      }
    };
    details.addEventListener("toggle", fill);
    fill();
    list.push(details);
  }
  if (list.length === 0)
    list.push(el("p", { class: "note", text: `No tool name contains “${filter}”.` }));
  $("#catalog-servers").replaceChildren(...list);
}

async function loadCatalog() {
  state.catalog = await api("/api/catalog");
  renderCatalog();
}

// ---- shell ---------------------------------------------------------------------------------

const loaders = {
  overview: loadOverview,
  catalog: loadCatalog,
  search: null,
  sessions: loadSessions,
  learned: loadLearned,
};
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

function wire() {
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
    refresh("overview");
  });
}

async function start() {
  wire();
  try {
    // the catalog and the cost are asked for together: the first screen shows both
    const cost = loadCost();
    await loadCatalog();
    loaded.add("catalog");
    await cost;
    loaded.add("overview");
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
    state.catalog = null;
    loaded.clear();
    const current = document.querySelector('[role="tab"][aria-selected="true"]');
    refresh(current.id.replace("tab-", ""));
  });
}

start();
