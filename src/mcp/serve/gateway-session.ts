/**
 * One client session of the gateway: an MCP server whose `tools/list` is the session's turn plan
 * (meta tools + loaded tools, per mode) and whose `tools/call` runs through ToolSift's dispatch
 * (policy, argument checks, budgets) to the upstream that owns the tool.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../../catalog/index.js";
import type { ExecuteOutcome, TurnSettings } from "../../disclosure/index.js";
import type { SessionProfile } from "../auth/user-profiles.js";
import type { GatewayMode } from "../config/gateway-config.js";
import type { MCPToolSift } from "../create-mcp-toolsift.js";
import { describeInstructions, gatewayInstructions } from "../features/server-instructions.js";
import {
  PASS_THROUGH_CAPABILITIES,
  registerPassThrough,
  relayThrough,
} from "../features/session-pass-through.js";
import { asCallHost, type CallScope } from "../relay/call-scope.js";
import type { CallTrace, GatewayTelemetry } from "../telemetry/gateway-telemetry.js";
import { startNote } from "../upstream/start-note.js";
import { lazySchemaValidator } from "./lazy-schema-validator.js";
import { profileRefusal, profileVisibility } from "./session-profiles.js";
import type { CallReport, SessionRecorder } from "./session-recorder.js";
import { callFacts, countSession, reportListing } from "./session-telemetry.js";

/** Options shared by every session of one gateway. */
export interface GatewaySessionOptions {
  sift: MCPToolSift;
  /** `bridge` (default): search/describe/call meta tools; `reveal`: the search tool plus the
   * tools found so far; `direct`: every visible tool. */
  mode?: GatewayMode;
  /** Tools per `tools/list` page; default 500. */
  pageSize?: number;
  serverInfo?: { name: string; version: string };
  /** Logs each session's reveals and calls (the inspector's Sessions view reads it). */
  recorder?: SessionRecorder;
  /** Awaited after a call, before its result is sent: replicas make the call's reveals visible
   * to every replica first (the client's next request may reach another one). */
  settle?: (session: string) => Promise<void>;
  /** Aborted when the gateway stops with calls still running: each ends at once with an error
   * result that says so (the client is answered, not left waiting on a closed stream). */
  stopping?: AbortSignal;
  /** OpenTelemetry spans and metrics per call (`loadGatewayTelemetry`); none by default. */
  telemetry?: GatewayTelemetry;
  /** The session's user (its token's subject, with an identity provider), for the recorder. */
  user?: () => string | undefined;
  /** The policy profile the user's token chose (`auth.profiles`): what the session may see and
   * call, on top of the gateway's policy. */
  profile?: () => SessionProfile | undefined;
  /** `serveStdio` and `serveHttp` only: once serving, run the SDK's JSON-RPC checks ahead on a
   * sample call, in slices that yield to real messages, so a fresh gateway's first calls do not
   * pay for compiling them (`warm-relay.ts`; about 0.3 ms a call over the first few hundred).
   * Default true; false saves its CPU (a few hundred ms, once per process) where no call will
   * follow. */
  warmUp?: boolean;
}

/** The disclosure settings each mode stands for. */
export function modeSettings(mode: GatewayMode): TurnSettings {
  if (mode === "direct") return { mode: "off" };
  // the search tool is there from the first tools/list, even before any server is up: a
  // search then says which servers are still starting (a client may never list again)
  return { mode: "on", strategy: mode, keepMetaTools: true };
}

/** An upstream tool keeps every field it was listed with (icons, `_meta`, …); only the name is
 * the gateway's. Meta tools and local tools are written from their definitions. */
function toMCPTool(sift: MCPToolSift, tool: ToolDefinition): Tool {
  const upstream = sift.upstreams.upstreamTool(tool.name);
  if (upstream) return { ...upstream, name: tool.name };
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool["outputSchema"] } : {}),
  };
}

/** Direct mode: the upstreams' instructions known now, as the session's own. */
function directInstructions(sift: MCPToolSift): { instructions?: string } {
  const text = gatewayInstructions(sift.upstreams.instructions(), (text) =>
    sift.tokenCounter.count(text),
  );
  return text === undefined ? {} : { instructions: text };
}

/** What a session's handlers share: the sift, the options, the session id and mode settings. */
interface SessionContext {
  sift: MCPToolSift;
  options: GatewaySessionOptions;
  session: () => string;
  settings: TurnSettings;
  server: Server;
}

/** The session's MCP server, before any handler: capabilities and its instructions. */
function newSessionServer(options: GatewaySessionOptions): Server {
  return new Server(options.serverInfo ?? { name: "toolsift", version: "0.1.0" }, {
    capabilities: { tools: { listChanged: true }, logging: {}, ...PASS_THROUGH_CAPABILITIES },
    jsonSchemaValidator: lazySchemaValidator(),
    ...(options.mode === "direct"
      ? directInstructions(options.sift)
      : {
          instructions:
            "Most tools are not listed. Search for the tool you need with the search tool before saying a capability is missing.",
        }),
  });
}

/** Creates the MCP server of one client session; connect it to that session's transport. The
 * session id may be a function, for transports that assign it during `initialize`. */
export function createGatewaySession(
  sessionId: string | (() => string),
  options: GatewaySessionOptions,
): Server {
  const server = newSessionServer(options);
  const context: SessionContext = {
    sift: options.sift,
    options,
    session: typeof sessionId === "string" ? () => sessionId : sessionId,
    settings: modeSettings(options.mode ?? "bridge"),
    server,
  };
  registerPassThrough(server, options.sift);
  if (options.telemetry) countSession(server, options.telemetry, options.mode ?? "bridge");
  watchClient(context);
  server.setRequestHandler(ListToolsRequestSchema, (request) =>
    listTools(context, request.params?.cursor),
  );
  const notes = callNotes(context);
  setCallHandler(server, (request, extra) => callTool(context, notes, request, extra));
  return server;
}

/** Once the client is initialized: upstream requests outside any call (roots after an
 * upstream's initialize) go to it, and the recorder opens and closes the session. */
function watchClient({ sift, options, session, server }: SessionContext): void {
  server.oninitialized = () => {
    const remove = sift.upstreams.addClient(relayThrough(server, server.request.bind(server)));
    options.recorder?.open(session(), server.getClientVersion(), options.user?.());
    const previous = server.onclose;
    server.onclose = () => {
      remove();
      options.recorder?.close(session());
      previous?.();
    };
  };
}

/** One page of the session's turn plan (meta tools, then loaded tools) as MCP tools. */
async function listTools(
  { sift, options, session, settings }: SessionContext,
  cursor: unknown,
): Promise<{ tools: Tool[]; nextCursor?: string }> {
  const visibility = profileVisibility(sift, options.profile?.());
  const plan = sift.prepare({
    session: session(),
    ...settings,
    ...(visibility ? { visibility } : {}),
  });
  const tools = [...plan.metaTools, ...plan.loaded].map((tool) => toMCPTool(sift, tool));
  const start = Number(cursor ?? 0);
  if (!Number.isInteger(start) || start < 0 || start > tools.length) {
    throw new Error(`Invalid cursor ${JSON.stringify(cursor)}; list again without one.`);
  }
  const end = start + (options.pageSize ?? 500);
  const page = end < tools.length ? tools.slice(start, end) : tools.slice(start);
  if (options.telemetry) {
    const mode = options.mode ?? "bridge";
    const user = options.user?.();
    const listing = { mode, plan, tools: page.length, first: start === 0 };
    reportListing(options.telemetry, user ? { ...listing, user } : listing);
  }
  return end < tools.length ? { tools: page, nextCursor: String(end) } : { tools: page };
}

type TextBlock = { type: "text"; text: string };

/** The text a successful call's result gains: the described tools' server instructions (bridge
 * and reveal, once per server per session) and, for a search made while servers are still
 * starting or after their start failed, which were not searched; and, for a call of a tool not
 * found, which servers are not up. */
function callNotes({ sift, options }: SessionContext) {
  const instructed = new Set<string>();
  // read when asked, so a server that came up later is included
  const described = (args: Record<string, unknown> | undefined): TextBlock[] => {
    if (options.mode === "direct" || !Array.isArray(args?.names)) return [];
    const servers = new Set(
      args.names.flatMap((name) =>
        typeof name === "string" && sift.catalog.has(name)
          ? [sift.upstreams.route(name)?.server]
          : [],
      ),
    );
    return sift.upstreams
      .instructions()
      .filter((entry) => servers.has(entry.server) && !instructed.has(entry.server))
      .map((entry) => {
        instructed.add(entry.server);
        const text = describeInstructions(entry, (text) => sift.tokenCounter.count(text));
        return { type: "text" as const, text };
      });
  };
  // bridge and reveal: a search says which servers it could not search (still starting, or
  // failed), so a model is not told a capability is missing when its server is down
  const starting = (called: string): TextBlock[] => {
    if (options.mode === "direct" || called !== sift.disclosure.metaToolNames.search) return [];
    const text = startNote(sift.upstreams);
    return text === undefined ? [] : [{ type: "text" as const, text }];
  };
  return {
    found: (called: string, args: Record<string, unknown> | undefined) => [
      ...described(args),
      ...starting(called),
    ],
    // a call of a tool no server offers (yet): which servers are starting or down, so "Unknown
    // tool" is not read as "no such capability" while its server is still coming up
    notFound: (): TextBlock[] => {
      const text = startNote(sift.upstreams, "call");
      return text === undefined ? [] : [{ type: "text" as const, text }];
    },
  };
}

type CallRequest = CallToolRequest;
type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Records a call with the session's server lookup. */
function record(
  { sift, options, session }: SessionContext,
  report: Omit<CallReport, "serverOf">,
): void {
  options.recorder?.record(session(), {
    ...report,
    serverOf: (tool) => sift.upstreams.route(tool)?.server,
  });
}

/** A pinned tool that changed is refused by name, directly or through the call meta tool; so is
 * a tool the session's user profile hides (with the rule that hid it): the refusal result
 * (recorded, and ending the call's span), or undefined when the call may go on. */
function refusedResult(
  context: SessionContext,
  request: CallRequest,
  started: { at: Date; start: number; trace: CallTrace | undefined },
) {
  const { name, arguments: args } = request.params;
  const { sift, options } = context;
  const inner = sift.catalog.has(name) ? undefined : args?.name;
  const held =
    sift.upstreams.heldMessage(name) ??
    (typeof inner === "string" ? sift.upstreams.heldMessage(inner) : undefined);
  const session = { profile: options.profile?.(), user: options.user?.() };
  const denied = held === undefined ? profileRefusal(sift, session, name, args) : undefined;
  const text = held ?? denied;
  if (text === undefined) return undefined;
  const content = [{ type: "text" as const, text }];
  const tool = typeof inner === "string" ? inner : name;
  const route = inner === undefined ? "direct" : "bridge";
  const durationMs = performance.now() - started.start;
  const refusal = { isError: true, errorCode: held === undefined ? "tool_denied" : "tool_held" };
  record(context, {
    name,
    arguments: args,
    outcome: { tool, route, revealed: [], repairs: [], ...refusal, content },
    startedAt: started.at,
    durationMs,
  });
  const server = context.sift.upstreams.route(tool)?.server;
  started.trace?.end({ tool, server, route, ...refusal, spilled: false, revealed: 0, durationMs });
  return { content, isError: true };
}

/** The call's scope: the upstream's sampling/elicitation/roots requests relayed to this client,
 * and its progress reports sent on with the client's token. Reports still being written when the
 * result is ready would land after it (or be lost with the response stream over HTTP), so they
 * are collected in `reports` for the result to wait on. */
function scopeOf(server: Server, request: CallRequest, extra: CallExtra) {
  const progressToken = request.params._meta?.progressToken;
  const reports: Promise<unknown>[] = [];
  const scope: CallScope = {
    relay: relayThrough(server, extra.sendRequest),
    ...(progressToken === undefined
      ? {}
      : {
          onProgress: (progress) => {
            const params = { ...progress, progressToken };
            reports.push(
              extra
                .sendNotification({ method: "notifications/progress", params })
                .catch(() => undefined),
            );
          },
        }),
  };
  return { scope, reports };
}

/** A `tools/call`: refused when held, else run through the sift's dispatch in the call's scope,
 * recorded, and answered with the outcome plus any notes. */
async function callTool(
  context: SessionContext,
  notes: ReturnType<typeof callNotes>,
  request: CallRequest,
  extra: CallExtra,
) {
  const { sift, options, session, settings, server } = context;
  const { name, arguments: args } = request.params;
  const startedAt = new Date();
  const start = performance.now();
  const trace = options.telemetry?.startCall(name, options.mode ?? "bridge", options.user?.());
  const refused = refusedResult(context, request, { at: startedAt, start, trace });
  if (refused) return refused;
  let truncated: CallReport["truncated"];
  const { scope, reports } = scopeOf(server, request, extra);
  // the call's child spans: its phases through dispatch, its upstream call through the scope
  if (trace?.upstream) scope.onUpstreamCall = trace.upstream;
  const { stopping } = options;
  const visibility = profileVisibility(sift, options.profile?.());
  const running = sift.execute({
    session: session(),
    ...(visibility ? { visibility } : {}),
    name,
    arguments: args ?? {},
    signal: extra.signal,
    // the upstream call reads its relay and progress from the host value dispatch passes on
    host: asCallHost(scope),
    onBudgetHit: (hit) => {
      truncated = { tokens: hit.tokens, limit: hit.limit };
    },
    ...(trace?.phase ? { onPhase: trace.phase } : {}),
    ...settings,
  });
  const outcome = stopping ? await untilStopped(running, stopping, name) : await running;
  await Promise.all(reports);
  await options.settle?.(session());
  const durationMs = performance.now() - start;
  record(context, { name, arguments: args, outcome, truncated, startedAt, durationMs });
  trace?.end(callFacts(context, outcome, truncated, durationMs));
  // reveal mode: found tools join this session's tools/list, so tell the client to re-list
  if (outcome.revealed.length > 0 && options.mode === "reveal") {
    await server.sendToolListChanged().catch(() => undefined);
  }
  return {
    content: [...outcome.content, ...notesFor(notes, outcome, name, args)],
    ...(outcome.structuredContent !== undefined
      ? { structuredContent: outcome.structuredContent }
      : {}),
    ...(outcome.isError ? { isError: true } : {}),
    ...(outcome._meta !== undefined ? { _meta: outcome._meta as Record<string, unknown> } : {}),
  };
}

/** The notes a call's result gains: after a success, the described servers' instructions and
 * the search's start note; after a tool was not found, the start note for calls. */
function notesFor(
  notes: ReturnType<typeof callNotes>,
  outcome: ExecuteOutcome,
  name: string,
  args: Record<string, unknown> | undefined,
): TextBlock[] {
  if (!outcome.isError) return notes.found(name, args);
  return outcome.errorCode === "tool_not_found" ? notes.notFound() : [];
}

/** The call's outcome, or an error outcome as soon as the gateway stops. */
async function untilStopped(
  running: Promise<ExecuteOutcome>,
  stopping: AbortSignal,
  name: string,
): Promise<ExecuteOutcome> {
  let stop: () => void = () => undefined;
  const stopped = new Promise<ExecuteOutcome>((resolve) => {
    const answer = () =>
      resolve({
        tool: name,
        route: "direct",
        ran: true,
        revealed: [],
        repairs: [],
        durationMs: 0,
        isError: true,
        errorCode: "gateway_stopped",
        content: [
          {
            type: "text",
            text: `The gateway stopped (shutdown of this replica) before "${name}" finished; whether it took effect upstream is unknown. Check, then call it again: the session goes on with the gateway's other replicas or after a restart.`,
          },
        ],
      });
    if (stopping.aborted) answer();
    stopping.addEventListener("abort", answer, { once: true });
    stop = () => stopping.removeEventListener("abort", answer);
  });
  try {
    return await Promise.race([running, stopped]);
  } finally {
    stop();
  }
}

/**
 * Registers the `tools/call` handler without the second validation `Server.setRequestHandler`
 * wraps around it. The request is already parsed against `CallToolRequestSchema` once by the
 * protocol layer, and the result is built from an upstream result the upstream client parsed
 * against `CallToolResultSchema` (or by the meta tools): parsing both again cost about a tenth of
 * the gateway's CPU per call in a profile of the end-to-end bench. Task-augmented calls, which
 * that wrapper also checks, are refused by the protocol layer: sessions declare no tasks.
 */
function setCallHandler(
  server: Server,
  handler: Parameters<typeof server.setRequestHandler<typeof CallToolRequestSchema>>[1],
): void {
  Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, handler);
}
