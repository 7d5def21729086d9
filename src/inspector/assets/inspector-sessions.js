// The Sessions view: a gateway's client sessions and their timeline, polled every 2 s; a banner
// when the gateway stops answering.
import { sparkline } from "./inspector-charts.js";
import { $, api, count, el, fieldList, fmt, headedTable } from "./inspector-common.js";

const POLL_MS = 2000;
// the newest events are shown; thousands of DOM nodes would make every update slow
const MAX_SHOWN = 300;
const sessions = {
  view: null,
  version: undefined,
  timer: 0,
  open: new Set(),
  whole: new Set(),
  lostAt: null,
};
// string values longer than this are cut in the arguments, with a button to show them whole
const CUT = 160;
// the latency sparkline shows this many of a server's newest calls
const SPARK = 40;

/** The server filter matches a call of its server and a search that found or revealed its tools. */
function eventServers(event) {
  return event.kind === "call" ? (event.server ? [event.server] : []) : event.servers;
}

/** A session's short id, its client and, with an identity provider, its user (token subject). */
export function sessionLabel(session) {
  const client = session.client ? ` (${session.client})` : "";
  const user = session.user ? ` by ${session.user}` : "";
  return `${session.id.slice(0, 8)}${client}${user}`;
}

const clock = (iso) => new Date(iso).toLocaleTimeString("en-GB", { hour12: false });

/** What a search event adds to its line, and its fields. */
function searchParts(event) {
  const outcome = event.error
    ? "ERROR"
    : `${fmt(event.found.length)} found, ${fmt(event.tools.length)} revealed`;
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
  if (event.repairs.length) head.push(` — ${count(event.repairs.length, "repair")}`);
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

/** The arguments with every string over CUT characters cut (unless `whole`), and how many were. */
function shownArguments(value, whole) {
  let cut = 0;
  const text = JSON.stringify(
    value,
    (_key, item) => {
      if (whole || typeof item !== "string" || item.length <= CUT) return item;
      cut++;
      return `${item.slice(0, CUT)}… (${fmt(item.length - CUT)} more characters)`;
    },
    2,
  );
  return { text, cut };
}

function argumentsNode(event, key) {
  const whole = sessions.whole.has(key);
  // arguments the recorder kept as cut JSON text are a string: cut that as a whole
  const { text, cut } =
    typeof event.arguments === "string"
      ? whole || event.arguments.length <= CUT * 4
        ? { text: event.arguments, cut: 0 }
        : { text: `${event.arguments.slice(0, CUT * 4)}…`, cut: 1 }
      : shownArguments(event.arguments, whole);
  const args = el(
    "details",
    { class: "arguments fold" },
    el("summary", {
      text: `arguments${event.argumentsCut ? " (cut by the gateway: too long to keep whole)" : ""}`,
    }),
    el("pre", { tabindex: "0", text }),
  );
  if (cut > 0 || whole) {
    const button = el("button", {
      type: "button",
      class: "link",
      "data-key": `whole:${key}`,
      text: whole ? "Cut long values again" : `Show ${count(cut, "long value")} whole`,
    });
    button.addEventListener("click", () => {
      if (whole) sessions.whole.delete(key);
      else sessions.whole.add(key);
      renderSessions();
    });
    args.append(button);
  }
  // a poll re-renders the list: arguments the reader opened stay open
  args.open = sessions.open.has(key);
  args.addEventListener("toggle", () => {
    if (args.open) sessions.open.add(key);
    else sessions.open.delete(key);
  });
  return args;
}

/** Calls per upstream server, oldest first, across every session. */
function callsByServer(view) {
  const calls = new Map();
  for (const session of view.sessions) {
    for (const event of session.events) {
      if (event.kind !== "call" || !event.server) continue;
      const list = calls.get(event.server) ?? [];
      list.push(event);
      calls.set(event.server, list);
    }
  }
  for (const list of calls.values()) list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return calls;
}

/** The error rate as words in a badge; its level is a class for colour, the text says it all. */
function errorBadge(calls) {
  if (calls.length === 0) return el("span", { class: "note", text: "no calls" });
  const errors = calls.filter((call) => !call.ok).length;
  const rate = errors / calls.length;
  const level = errors === 0 ? "good" : rate < 0.25 ? "warn" : "bad";
  return el("span", {
    class: `badge badge-${level}`,
    text: `${Math.round(rate * 100)}% errors (${fmt(errors)} of ${fmt(calls.length)})`,
  });
}

function serversTable(view) {
  const calls = callsByServer(view);
  const table = headedTable([
    "server",
    "state",
    ["tools", "num"],
    ["calls", "num"],
    "errors",
    "latency (newest calls)",
    "error",
  ]);
  const body = el("tbody");
  for (const s of view.servers ?? []) {
    const list = calls.get(s.server) ?? [];
    const latencies = list.slice(-SPARK).map((call) => call.durationMs);
    body.append(
      el(
        "tr",
        {},
        el("th", { scope: "row", text: s.server }),
        el("td", {}, el("span", { class: `state state-${s.state}`, text: s.state })),
        el("td", { class: "num", text: fmt(s.tools) }),
        el("td", { class: "num", text: fmt(list.length) }),
        el("td", {}, errorBadge(list)),
        el(
          "td",
          { class: "spark" },
          latencies.length ? sparkline(latencies) : null,
          latencies.length
            ? el("span", { class: "note", text: ` last ${fmt(latencies.at(-1))} ms` })
            : null,
        ),
        el("td", { text: s.error ?? "" }),
      ),
    );
  }
  table.append(body);
  return table;
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

export function renderSessions() {
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
    `${count(view.sessions.length, "session")} of ${view.source ?? "the gateway"}` +
    (view.endpoint ? `. MCP clients connect to ${view.endpoint}` : "") +
    (view.droppedSessions
      ? `. ${count(view.droppedSessions, "older session")} dropped (the log keeps ${view.limits.maxSessions})`
      : "") +
    `. Updated ${clock(new Date().toISOString())}.`;
  $("#sessions-summary").textContent = summary;

  const table = serversTable(view);
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
      text: `${sessionLabel(session)} — ${session.closedAt ? "closed" : "open"}: ${count(calls, "call")}, ${count(errors, "error")}, ${count(searches, "search", "searches")}, ${count(revealed, "tool")} revealed; last ${clock(session.lastAt)}`,
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
    `${count(shown.length, "event")}${server ? ` of server ${server}` : ""}${chosen ? ` in session ${sessionLabel(byId.get(chosen))}` : " in all sessions"}, newest first` +
    (shown.length > MAX_SHOWN
      ? `; the newest ${MAX_SHOWN} are shown (filter by session or server for the rest)`
      : "") +
    (dropped
      ? `; ${count(dropped, "older event")} dropped (the log keeps ${view.limits.maxEvents} per session)`
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

export async function pollSessions() {
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

export async function loadSessions() {
  await pollSessions();
}
