/**
 * `createSessionRecorder`: a bounded log of what each gateway client session did (searches and
 * the tools they revealed, calls with their arguments, repairs, errors, truncation and latency),
 * read by the inspector's Sessions view. Memory stays bounded: sessions, events per session,
 * argument size and error text all have caps, and the oldest entries go first.
 */

import { ToolsiftError } from "../../errors.js";

/** Caps of one recorder; every figure is a count of items or characters. */
export interface SessionRecorderOptions {
  /** Sessions kept; past it the closed session (else the idle one) with the oldest activity is
   * dropped. Default 20. */
  maxSessions?: number;
  /** Events kept per session; past it the oldest are dropped (and counted). Default 250. */
  maxEvents?: number;
  /** Characters of JSON kept of one call's arguments; longer ones are kept as a cut string.
   * Default 1,000. */
  maxArgumentChars?: number;
  /** Characters kept of an error text, a search query or one repair. Default 500. */
  maxTextChars?: number;
}

/** A search or describe meta tool call and the tools it revealed to the session. */
export interface RecordedReveal {
  kind: "reveal";
  /** ISO time the call started. */
  at: string;
  /** The meta tool called, e.g. `tool_search`. */
  tool: string;
  /** The queries (search) or names (describe) asked for, joined by " | ". */
  query: string;
  /** Tools the search returned, in its order (at most 25 names, the engine's most hits). */
  found: string[];
  /** Those newly revealed to the session by this call (at most 25 names). */
  tools: string[];
  /** The servers of the tools found or revealed, once each. */
  servers: string[];
  error?: string;
  durationMs: number;
}

/** A call of a real tool, directly or through the call meta tool. */
export interface RecordedCall {
  kind: "call";
  at: string;
  tool: string;
  /** The upstream server that owns the tool; absent for the gateway's own tools. */
  server?: string;
  /** `direct` (called by name) or `bridge` (through the call meta tool). */
  route: "direct" | "bridge";
  /** The arguments as sent, or a string cut to `maxArgumentChars` when their JSON is longer. */
  arguments: unknown;
  argumentsCut?: boolean;
  /** Argument repairs applied, in words (at most 10). */
  repairs: string[];
  ok: boolean;
  /** snake_case reason when the call failed before or in the tool (e.g. `invalid_arguments`). */
  errorCode?: string;
  /** The error result's text, cut to `maxTextChars`. */
  error?: string;
  /** Set when the result budget cut the result: its tokens before, and the limit. */
  truncated?: { tokens: number; limit: number };
  /** Milliseconds from the client's request to the gateway's answer. */
  durationMs: number;
}

export type RecordedEvent = RecordedReveal | RecordedCall;

/** One client session's log. */
export interface RecordedSession {
  id: string;
  /** The client's name and version from `initialize`, when it sent them. */
  client?: string;
  /** Its token's subject, when an identity provider checks the gateway (`--auth-issuer`). */
  user?: string;
  startedAt: string;
  lastAt: string;
  /** Set once the client disconnected. */
  closedAt?: string;
  /** Oldest first. */
  events: RecordedEvent[];
  /** Events dropped from the start to stay within `maxEvents`. */
  dropped: number;
}

/** What the gateway reports for one `tools/call`. */
export interface CallReport {
  /** The tool name the client called (a meta tool name for search, describe and bridge calls). */
  name: string;
  arguments: unknown;
  /** The real tool, its route and what happened (from `sift.execute`). */
  outcome: {
    tool: string;
    route: "direct" | "bridge" | "meta";
    revealed: readonly string[];
    repairs: readonly string[];
    isError?: boolean | undefined;
    errorCode?: string | undefined;
    content?: readonly { type: string; text?: string }[];
    /** The search meta tool's `{ matches: [{ query, tools }] }`, read for the tools it found. */
    structuredContent?: unknown;
  };
  /** The server owning a tool, for calls and reveals. */
  serverOf(tool: string): string | undefined;
  truncated?: { tokens: number; limit: number } | undefined;
  startedAt: Date;
  durationMs: number;
}

/** A bounded per-session event log. */
export interface SessionRecorder {
  /** Starts (or renames the client of) a session. Calls to an unknown session open it too. */
  open(session: string, client?: { name: string; version: string }, user?: string): void;
  close(session: string): void;
  record(session: string, report: CallReport): void;
  /** Every session kept, most recently active first; copies, safe to serialise. */
  sessions(): RecordedSession[];
  /** Increases with every change; a cheap key for "anything new?". */
  readonly version: number;
  /** Sessions dropped to stay within `maxSessions`. */
  readonly droppedSessions: number;
  readonly limits: Required<SessionRecorderOptions>;
}

// a search returns at most 25 hits (the engine's MAX_LIMIT); a call rarely needs 10 repairs
const MAX_REVEALED_NAMES = 25;
const MAX_REPAIRS = 10;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ToolsiftError(
      "invalid_option",
      `createSessionRecorder: ${name} must be a whole number of at least 1, got ${String(value)}.`,
    );
  }
  return value;
}

/** The search queries or describe names of a meta tool call, as one line. */
function askedFor(args: unknown): string {
  if (args === null || typeof args !== "object") return "";
  const { queries, query, names, name } = args as Record<string, unknown>;
  const given = queries ?? query ?? names ?? name;
  const list = Array.isArray(given) ? given : given === undefined ? [] : [given];
  return list.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join(" | ");
}

/** The tool names in a search result's `matches`, once each; none for other results. */
export function foundTools(structured: unknown): string[] {
  const matches = (structured as { matches?: unknown } | undefined)?.matches;
  if (!Array.isArray(matches)) return [];
  const names = new Set<string>();
  for (const match of matches) {
    const tools = (match as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) if (typeof tool === "string") names.add(tool);
  }
  return [...names];
}

function errorText(content: CallReport["outcome"]["content"]): string {
  return (content ?? []).map((block) => block.text ?? `[${block.type}]`).join("\n");
}

/** The JSON of a call's arguments, or a cut string when it is longer than the cap. */
function keepArguments(
  args: unknown,
  maxChars: number,
): Pick<RecordedCall, "arguments" | "argumentsCut"> {
  let json: string | undefined;
  try {
    json = JSON.stringify(args);
  } catch {
    json = undefined;
  }
  if (json === undefined) return { arguments: String(args) };
  if (json.length <= maxChars) return { arguments: JSON.parse(json) };
  return { arguments: cut(json, maxChars), argumentsCut: true };
}

/** The event one report stands for: a reveal for meta tool calls, else a call, every list and
 * text within its cap. */
export function toRecordedEvent(
  report: CallReport,
  limits: Required<SessionRecorderOptions>,
): RecordedEvent {
  const { outcome } = report;
  const error = outcome.isError
    ? { error: cut(errorText(outcome.content), limits.maxTextChars) }
    : {};
  const at = report.startedAt.toISOString();
  const durationMs = Math.round(report.durationMs * 10) / 10;
  if (outcome.route === "meta") {
    const tools = outcome.revealed.slice(0, MAX_REVEALED_NAMES);
    const found = foundTools(outcome.structuredContent).slice(0, MAX_REVEALED_NAMES);
    const servers = new Set([...found, ...tools].map((tool) => report.serverOf(tool)));
    servers.delete(undefined);
    return {
      kind: "reveal",
      at,
      tool: report.name,
      query: cut(askedFor(report.arguments), limits.maxTextChars),
      found,
      tools,
      servers: [...servers] as string[],
      ...error,
      durationMs,
    };
  }
  // through the call meta tool, the real tool's arguments are one level down
  const args =
    outcome.route === "bridge" && report.arguments !== null && typeof report.arguments === "object"
      ? (report.arguments as { arguments?: unknown }).arguments
      : report.arguments;
  const server = report.serverOf(outcome.tool);
  return {
    kind: "call",
    at,
    tool: outcome.tool,
    ...(server !== undefined ? { server } : {}),
    route: outcome.route,
    ...keepArguments(args ?? {}, limits.maxArgumentChars),
    repairs: outcome.repairs
      .slice(0, MAX_REPAIRS)
      .map((repair) => cut(repair, limits.maxTextChars)),
    ok: !outcome.isError,
    ...(outcome.errorCode !== undefined ? { errorCode: outcome.errorCode } : {}),
    ...error,
    ...(report.truncated ? { truncated: report.truncated } : {}),
    durationMs,
  };
}

/** The recorder's caps with their defaults, each checked. */
function recorderLimits(options: SessionRecorderOptions): Required<SessionRecorderOptions> {
  return {
    maxSessions: positive(options.maxSessions, 20, "maxSessions"),
    maxEvents: positive(options.maxEvents, 250, "maxEvents"),
    maxArgumentChars: positive(options.maxArgumentChars, 1_000, "maxArgumentChars"),
    maxTextChars: positive(options.maxTextChars, 500, "maxTextChars"),
  };
}

/** Appends an event, dropping (and counting) the oldest past `maxEvents`. */
function push(session: RecordedSession, event: RecordedEvent, maxEvents: number) {
  session.events.push(event);
  const over = session.events.length - maxEvents;
  if (over > 0) {
    session.events.splice(0, over);
    session.dropped += over;
  }
}

/** Creates a recorder; pass it as `recorder` to `serveHttp`, `serveStdio` or `createHttpGateway`. */
export function createSessionRecorder(options: SessionRecorderOptions = {}): SessionRecorder {
  const limits = recorderLimits(options);
  // a Map keeps insertion order; touching a session re-inserts it, so the first is the stalest
  const log = new Map<string, RecordedSession>();
  let version = 0;
  let droppedSessions = 0;

  function evict(keep: string) {
    while (log.size > limits.maxSessions) {
      const stale =
        [...log.values()].find(
          (session) => session.closedAt !== undefined && session.id !== keep,
        ) ?? log.values().next().value;
      if (!stale) return;
      log.delete(stale.id);
      droppedSessions += 1;
    }
  }

  function touch(id: string, now: Date): RecordedSession {
    const at = now.toISOString();
    const session = log.get(id) ?? { id, startedAt: at, lastAt: at, events: [], dropped: 0 };
    session.lastAt = at;
    log.delete(id);
    log.set(id, session);
    evict(id);
    version += 1;
    return session;
  }

  return {
    open(id, client, user) {
      const session = touch(id, new Date());
      if (client) session.client = cut(`${client.name} ${client.version}`, limits.maxTextChars);
      if (user !== undefined) session.user = cut(user, limits.maxTextChars);
    },
    close(id) {
      const session = log.get(id);
      if (!session || session.closedAt !== undefined) return;
      session.closedAt = new Date().toISOString();
      version += 1;
    },
    record(id, report) {
      push(touch(id, new Date()), toRecordedEvent(report, limits), limits.maxEvents);
    },
    sessions: () => [...log.values()].reverse().map((session) => structuredClone(session)),
    get version() {
      return version;
    },
    get droppedSessions() {
      return droppedSessions;
    },
    limits,
  };
}
