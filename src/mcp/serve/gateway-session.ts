/**
 * One client session of the gateway: an MCP server whose `tools/list` is the session's turn plan
 * (meta tools + loaded tools, per mode) and whose `tools/call` runs through ToolSift's dispatch
 * (policy, argument checks, budgets) to the upstream that owns the tool.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../../catalog/index.js";
import type { TurnSettings } from "../../disclosure/index.js";
import type { GatewayMode } from "../config/gateway-config.js";
import type { MCPToolSift } from "../create-mcp-toolsift.js";
import { describeInstructions, gatewayInstructions } from "../features/server-instructions.js";
import {
  PASS_THROUGH_CAPABILITIES,
  registerPassThrough,
  relayThrough,
} from "../features/session-pass-through.js";
import { type CallScope, callScope } from "../relay/call-scope.js";
import type { CallReport, SessionRecorder } from "./session-recorder.js";

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
  /** The session's user (its token's subject, with an identity provider), for the recorder. */
  user?: () => string | undefined;
}

/** The disclosure settings each mode stands for. */
export function modeSettings(mode: GatewayMode): TurnSettings {
  if (mode === "direct") return { mode: "off" };
  return { mode: "on", strategy: mode };
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

/** Creates the MCP server of one client session; connect it to that session's transport. The
 * session id may be a function, for transports that assign it during `initialize`. */
export function createGatewaySession(
  sessionId: string | (() => string),
  options: GatewaySessionOptions,
): Server {
  const { sift } = options;
  const session = typeof sessionId === "string" ? () => sessionId : sessionId;
  const settings = modeSettings(options.mode ?? "bridge");
  const pageSize = options.pageSize ?? 500;
  const server = new Server(options.serverInfo ?? { name: "toolsift", version: "0.1.0" }, {
    capabilities: { tools: { listChanged: true }, logging: {}, ...PASS_THROUGH_CAPABILITIES },
    ...(options.mode === "direct"
      ? directInstructions(sift)
      : {
          instructions:
            "Most tools are not listed. Search for the tool you need with the search tool before saying a capability is missing.",
        }),
  });

  registerPassThrough(server, sift);
  // bridge and reveal: a describe answer carries the instructions of the described tools'
  // servers, once per session (read when asked, so a server that came up later is included)
  const instructed = new Set<string>();
  const describedInstructions = (args: Record<string, unknown> | undefined) => {
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
        return {
          type: "text" as const,
          text: describeInstructions(entry, (text) => sift.tokenCounter.count(text)),
        };
      });
  };
  const startingServers = () => sift.upstreams.notReady().length > 0;
  // bridge: a search says which servers it could not search: still starting, or waiting for a
  // login (their status names the command to run)
  const startingNote = (called: string) => {
    if (options.mode !== "bridge" || called !== sift.disclosure.metaToolNames.search) return [];
    const pending = sift.upstreams.notReady();
    const notes = sift.upstreams
      .status()
      .filter((status) => status.state === "needs_login")
      .map((status) => ({
        type: "text" as const,
        text: `Not searched: ${status.error ?? `Server "${status.server}" needs a login.`} Its tools join once the login is stored; no restart is needed.`,
      }));
    if (pending.length === 0) return notes;
    const list = pending.map((server) => `"${server}"`).join(", ");
    return [
      {
        type: "text" as const,
        text: `Not searched yet, still starting: ${list}. Their tools join when they are up; search again in a moment.`,
      },
      ...notes,
    ];
  };
  // requests an upstream sends outside any call (roots after its initialize) come here too
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
  const record = (report: Omit<CallReport, "serverOf">) =>
    options.recorder?.record(session(), {
      ...report,
      serverOf: (tool) => sift.upstreams.route(tool)?.server,
    });

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    let plan = sift.prepare({ session: session(), ...settings });
    if (options.mode !== "direct" && plan.metaTools.length === 0 && startingServers()) {
      await firstToolsOrStarted(sift);
      plan = sift.prepare({ session: session(), ...settings });
    }
    const tools = [...plan.metaTools, ...plan.loaded].map((tool) => toMCPTool(sift, tool));
    const start = Number(request.params?.cursor ?? 0);
    if (!Number.isInteger(start) || start < 0 || start > tools.length) {
      throw new Error(
        `Invalid cursor ${JSON.stringify(request.params?.cursor)}; list again without one.`,
      );
    }
    const end = start + pageSize;
    return end < tools.length
      ? { tools: tools.slice(start, end), nextCursor: String(end) }
      : { tools: tools.slice(start) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // a pinned tool that changed is refused by name, directly or through the call meta tool
    const { name, arguments: args } = request.params;
    const startedAt = new Date();
    const start = performance.now();
    const inner = sift.catalog.has(name) ? undefined : args?.name;
    const held =
      sift.upstreams.heldMessage(name) ??
      (typeof inner === "string" ? sift.upstreams.heldMessage(inner) : undefined);
    if (held !== undefined) {
      const content = [{ type: "text" as const, text: held }];
      record({
        name,
        arguments: args,
        outcome: {
          tool: typeof inner === "string" ? inner : name,
          route: inner === undefined ? "direct" : "bridge",
          revealed: [],
          repairs: [],
          isError: true,
          errorCode: "tool_held",
          content,
        },
        startedAt,
        durationMs: performance.now() - start,
      });
      return { content, isError: true };
    }
    let truncated: CallReport["truncated"];
    // the client's progress token follows the call to the upstream, whose reports come back
    const progressToken = request.params._meta?.progressToken;
    // reports still being written when the result is ready would land after it (or be lost with
    // the response stream over HTTP): the result waits for them
    const reports: Promise<unknown>[] = [];
    const scope: CallScope = {
      onBudgetHit: (hit) => {
        truncated = { tokens: hit.tokens, limit: hit.limit };
      },
      // the upstream's sampling/elicitation/roots requests during the call go to this client
      relay: relayThrough(server, extra.sendRequest),
      ...(progressToken === undefined
        ? {}
        : {
            onProgress: (progress) => {
              reports.push(
                extra
                  .sendNotification({
                    method: "notifications/progress",
                    params: { ...progress, progressToken },
                  })
                  .catch(() => undefined),
              );
            },
          }),
    };
    const outcome = await callScope.run(scope, () =>
      sift.execute({
        session: session(),
        name: request.params.name,
        arguments: request.params.arguments ?? {},
        signal: extra.signal,
        ...settings,
      }),
    );
    await Promise.all(reports);
    await options.settle?.(session());
    record({
      name,
      arguments: args,
      outcome,
      truncated,
      startedAt,
      durationMs: performance.now() - start,
    });
    // reveal mode: found tools join this session's tools/list, so tell the client to re-list
    if (outcome.revealed.length > 0 && options.mode === "reveal") {
      await server.sendToolListChanged().catch(() => undefined);
    }
    const notes = outcome.isError
      ? []
      : [...describedInstructions(request.params.arguments), ...startingNote(name)];
    return {
      content: [...outcome.content, ...notes],
      ...(outcome.structuredContent !== undefined
        ? { structuredContent: outcome.structuredContent }
        : {}),
      ...(outcome.isError ? { isError: true } : {}),
      ...(outcome._meta !== undefined ? { _meta: outcome._meta as Record<string, unknown> } : {}),
    };
  });
  return server;
}

/**
 * Waits until the catalog gets its first tools or every upstream start has settled (each start is
 * bounded by its start limit). With every server still starting there is nothing to search, and
 * an empty `tools/list` would leave a client without the search tool until it lists again.
 */
function firstToolsOrStarted(sift: MCPToolSift): Promise<void> {
  return new Promise((resolve) => {
    const stop = sift.catalog.onChange(() => {
      stop();
      resolve();
    });
    void sift.upstreams.started.then(() => {
      stop();
      resolve();
    });
  });
}
