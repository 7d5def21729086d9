// The inspector page: plain DOM, text built with textContent (tool data is never parsed as HTML).
const $ = (selector) => document.querySelector(selector);
const SVG = "http://www.w3.org/2000/svg";
const state = { profile: "", catalog: null };

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

const fmt = (n) => Number(n).toLocaleString("en");

/** Fetches one API route; a refused request becomes an Error carrying the server's message. */
async function api(path, params = {}) {
  const query = new URLSearchParams({ profile: state.profile, ...params });
  const response = await fetch(`${path}?${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message ?? `${response.status} from ${path}`);
  return body;
}

function showError(error) {
  const box = $("#error");
  box.textContent = error ? error.message : "";
  box.hidden = !error;
}

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

function fieldList(entries) {
  const list = el("dl", { class: "fields" });
  for (const [key, value] of entries) {
    list.append(el("dt", { text: key }), el("dd", {}, value));
  }
  return list;
}

function valueNode(value) {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return document.createTextNode(String(value));
  }
  return el("pre", { text: JSON.stringify(value, null, 2) });
}

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

const SHOWN = new Set(["name", "score", "server", "description", "signature", "explanation"]);

function hitNode(hit, position, kind) {
  const box = el("article", { class: "hit" });
  const score = kind === "keyword" ? ` — score ${Number(hit.score).toFixed(3)}` : "";
  box.append(
    el("h3", {
      text: `${position + 1}. ${hit.name}${hit.server ? ` [${hit.server}]` : ""}${score}`,
    }),
  );
  box.append(el("code", { class: "signature", text: hit.signature }));
  box.append(el("p", { text: (hit.description ?? "").split("\n")[0] }));
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

// ---- sessions ------------------------------------------------------------------------------

const POLL_MS = 2000;
// the newest events are shown; thousands of DOM nodes would make every update slow
const MAX_SHOWN = 300;
const sessions = { view: null, version: undefined, timer: 0, open: new Set(), lostAt: null };

/** The server filter matches a call of its server and a search that found or revealed its tools. */
function eventServers(event) {
  return event.kind === "call" ? (event.server ? [event.server] : []) : event.servers;
}

function sessionLabel(session) {
  return `${session.id.slice(0, 8)}${session.client ? ` (${session.client})` : ""}`;
}

const clock = (iso) => new Date(iso).toLocaleTimeString("en-GB", { hour12: false });

/** What a search event adds to its line, and its fields. */
function searchParts(event) {
  const outcome = event.error
    ? "ERROR"
    : `${event.found.length} found, ${event.tools.length} revealed`;
  const entries = [];
  for (const [label, names] of [
    ["found", event.found],
    ["revealed", event.tools],
    ["servers", event.servers],
  ]) {
    if (names.length) entries.push([label, el("span", { text: names.join(", ") })]);
  }
  return { tag: "SEARCH", head: [` "${event.query}" — ${outcome}`], entries };
}

/** What a call event adds to its line (outcome words, so nothing depends on colour), and its fields. */
function callParts(event) {
  const status = event.ok ? "OK" : `ERROR${event.errorCode ? ` ${event.errorCode}` : ""}`;
  const head = [
    event.server ? ` on ${event.server}` : "",
    event.route === "bridge" ? " (through tool_call)" : "",
    " — ",
    el("strong", { class: event.ok ? "ok" : "failed", text: status }),
  ];
  if (event.truncated) head.push(" — ", el("strong", { class: "cut", text: "RESULT CUT" }));
  if (event.repairs.length) head.push(` — ${event.repairs.length} repair(s)`);
  const entries = [];
  if (event.repairs.length) {
    entries.push(["repairs", el("ul", {}, ...event.repairs.map((r) => el("li", { text: r })))]);
  }
  if (event.truncated) {
    entries.push([
      "result",
      el("span", {
        text: `cut from ${fmt(event.truncated.tokens)} tokens to the ${fmt(event.truncated.limit)}-token limit`,
      }),
    ]);
  }
  return { tag: "CALL", head, entries };
}

function argumentsNode(event, key) {
  const text =
    typeof event.arguments === "string"
      ? event.arguments
      : JSON.stringify(event.arguments, null, 2);
  const args = el(
    "details",
    { class: "arguments" },
    el("summary", {
      text: `arguments${event.argumentsCut ? " (cut: too long to keep whole)" : ""}`,
    }),
    el("pre", { text }),
  );
  // a poll re-renders the list: arguments the reader opened stay open
  args.open = sessions.open.has(key);
  args.addEventListener("toggle", () => {
    if (args.open) sessions.open.add(key);
    else sessions.open.delete(key);
  });
  return args;
}

function eventNode(session, event, key) {
  const parts = event.kind === "reveal" ? searchParts(event) : callParts(event);
  const item = el("li", { class: `event event-${event.kind}`, "data-key": key });
  item.append(
    el(
      "p",
      { class: "event-head" },
      el("time", { datetime: event.at, text: clock(event.at) }),
      " ",
      el("strong", { class: "tag", text: parts.tag }),
      " ",
      el("code", { text: event.tool }),
      ...parts.head,
      ` — ${event.durationMs} ms — `,
      el("span", { class: "event-session", text: sessionLabel(session) }),
    ),
  );
  if (event.error)
    parts.entries.push(["error", el("span", { class: "error-text", text: event.error })]);
  if (parts.entries.length) item.append(fieldList(parts.entries));
  if (event.kind === "call") item.append(argumentsNode(event, key));
  return item;
}

function fillFilter(select, values, allLabel, label = (value) => value) {
  const current = select.value;
  select.replaceChildren(
    el("option", { value: "", text: allLabel }),
    ...values.map((value) => el("option", { value, text: label(value) })),
  );
  select.value = values.includes(current) ? current : "";
}

function renderSessions() {
  const view = sessions.view;
  const box = $("#sessions");
  if (!view) return;
  if (!view.attached) {
    box.replaceChildren(
      el("h2", { text: "No gateway attached" }),
      el("p", {
        text: "Sessions (reveals over time, calls with arguments, repairs, errors, truncations and latency) appear when the inspector is attached to a running toolsift gateway: start it with toolsift inspect --config FILE, or toolsift serve --config FILE --inspect.",
      }),
    );
    return;
  }
  const focused = document.activeElement?.dataset?.key;
  const serverFilter = $("#server-filter");
  const sessionFilter = $("#session-filter");
  const servers = [
    ...new Set([
      ...(view.servers ?? []).map((s) => s.server),
      ...view.sessions.flatMap((s) => s.events.flatMap(eventServers)),
    ]),
  ].sort();
  fillFilter(serverFilter, servers, "all servers");
  const byId = new Map(view.sessions.map((s) => [s.id, s]));
  fillFilter(sessionFilter, [...byId.keys()], "all sessions", (id) => sessionLabel(byId.get(id)));
  const server = serverFilter.value;
  const chosen = sessionFilter.value;
  const matches = (event) => !server || eventServers(event).includes(server);

  const summary =
    `${view.sessions.length} session(s) of ${view.source ?? "the gateway"}` +
    (view.endpoint ? `. MCP clients connect to ${view.endpoint}` : "") +
    (view.droppedSessions
      ? `. ${view.droppedSessions} older session(s) dropped (the log keeps ${view.limits.maxSessions})`
      : "") +
    `. Updated ${clock(new Date().toISOString())}.`;
  $("#sessions-summary").textContent = summary;

  const table = el("table");
  table.append(
    el(
      "tr",
      {},
      el("th", { text: "server" }),
      el("th", { text: "state" }),
      el("th", { class: "num", text: "tools" }),
      el("th", { text: "error" }),
    ),
  );
  for (const s of view.servers ?? []) {
    table.append(
      el(
        "tr",
        {},
        el("td", { text: s.server }),
        el("td", { class: `state state-${s.state}`, text: s.state }),
        el("td", { class: "num", text: fmt(s.tools) }),
        el("td", { text: s.error ?? "" }),
      ),
    );
  }
  $("#sessions-servers").replaceChildren(table);

  const list = el("ul", { class: "session-list", "aria-label": "Sessions" });
  for (const session of view.sessions) {
    const events = session.events.filter(matches);
    const calls = events.filter((e) => e.kind === "call").length;
    const searches = events.length - calls;
    const errors = events.filter((e) => e.error !== undefined).length;
    const revealed = events.reduce((n, e) => n + (e.kind === "reveal" ? e.tools.length : 0), 0);
    const button = el("button", {
      type: "button",
      "data-key": `session:${session.id}`,
      "aria-pressed": String(chosen === session.id),
      text: `${sessionLabel(session)} — ${session.closedAt ? "closed" : "open"}: ${calls} call(s), ${errors} error(s), ${searches} search(es), ${revealed} tool(s) revealed; last ${clock(session.lastAt)}`,
    });
    button.addEventListener("click", () => {
      sessionFilter.value = chosen === session.id ? "" : session.id;
      renderSessions();
    });
    list.append(el("li", {}, button));
  }
  if (view.sessions.length === 0) {
    list.append(
      el("li", {
        text: view.endpoint
          ? `No client yet: point an MCP client at ${view.endpoint}.`
          : "No client session yet.",
      }),
    );
  }
  $("#session-list").replaceChildren(list);

  const shown = [];
  for (const session of view.sessions) {
    if (chosen && session.id !== chosen) continue;
    session.events.forEach((event, index) => {
      if (matches(event))
        shown.push({ session, event, key: `${session.id}#${session.dropped + index}` });
    });
  }
  shown.sort((a, b) => (a.event.at < b.event.at ? 1 : a.event.at > b.event.at ? -1 : 0));
  const timeline = el("ol", { class: "timeline", "aria-label": "Events, newest first" });
  for (const { session, event, key } of shown.slice(0, MAX_SHOWN))
    timeline.append(eventNode(session, event, key));
  const dropped = view.sessions.reduce(
    (n, s) => n + (chosen && s.id !== chosen ? 0 : s.dropped),
    0,
  );
  $("#timeline-summary").textContent =
    `${shown.length} event(s)${server ? ` of server ${server}` : ""}${chosen ? ` in session ${sessionLabel(byId.get(chosen))}` : " in all sessions"}, newest first` +
    (shown.length > MAX_SHOWN
      ? `; the newest ${MAX_SHOWN} are shown (filter by session or server for the rest)`
      : "") +
    (dropped
      ? `; ${dropped} older event(s) dropped (the log keeps ${view.limits.maxEvents} per session)`
      : "") +
    ".";
  $("#timeline").replaceChildren(timeline);
  if (focused) document.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

function showConnection(error) {
  const banner = $("#connection");
  if (!error) {
    sessions.lostAt = null;
    banner.hidden = true;
    return;
  }
  sessions.lostAt ??= new Date();
  banner.textContent =
    `The gateway stopped answering at ${clock(sessions.lostAt.toISOString())} (${error.message}). ` +
    `It may have exited or been stopped; what it had recorded stays below. Retrying every ${POLL_MS / 1000} s.`;
  banner.hidden = false;
}

async function pollSessions() {
  clearTimeout(sessions.timer);
  try {
    const params = sessions.version === undefined ? {} : { since: sessions.version };
    const view = await api("/api/sessions", params);
    showConnection(null);
    if (!view.unchanged) {
      sessions.view = view;
      sessions.version = view.version;
      renderSessions();
    }
    if (!view.attached) return;
  } catch (error) {
    showConnection(error);
  }
  sessions.timer = setTimeout(pollSessions, POLL_MS);
}

async function loadSessions() {
  await pollSessions();
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
