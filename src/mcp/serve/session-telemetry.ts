/**
 * What a gateway session tells its telemetry: that it is open, each listing with what deferral
 * saved, and the facts of each call. Names, counts and codes only, never arguments or result
 * text. Called only with telemetry on: nothing here runs per call without it.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ExecuteOutcome, TurnPlan, TurnSettings } from "../../disclosure/index.js";
import type { MCPToolSift } from "../create-mcp-toolsift.js";
import type { CallFacts, GatewayTelemetry } from "../telemetry/gateway-telemetry.js";
import { type CallReport, foundTools } from "./session-recorder.js";

/** What the session knows of itself, as telemetry reads it. */
interface SessionFacts {
  sift: MCPToolSift;
  session: () => string;
  settings: TurnSettings;
}

/** The sessions gauge counts this session from its creation (an HTTP session adopted from the
 * store is never initialized here) until its server closes. */
export function countSession(server: Server, telemetry: GatewayTelemetry, mode: string): void {
  const close = telemetry.openSession?.(mode);
  if (!close) return;
  const previous = server.onclose;
  server.onclose = () => {
    close();
    previous?.();
  };
}

/** What deferral keeps out of a turn: tokens of every visible definition minus those of the
 * meta and loaded tools sent (0 when nothing is deferred). The first read counts the whole
 * catalog once (the plan's tally keeps it). */
function tokensSaved(plan: TurnPlan): number {
  const { allTokens, loadedTokens, metaTokens } = plan.stats;
  return Math.max(0, allTokens - loadedTokens - metaTokens);
}

/** Reports one page of a `tools/list`; a listing is one turn however many pages it takes, so
 * its saving is counted on the first. */
export function reportListing(
  telemetry: GatewayTelemetry,
  listing: { mode: string; plan: TurnPlan; tools: number; first: boolean; user?: string },
): void {
  const { mode, plan, tools, first, user } = listing;
  telemetry.listed?.({
    mode,
    tools,
    deferred: plan.deferred.length,
    tokensSaved: first ? tokensSaved(plan) : undefined,
    user,
  });
}

const SPILLED = /stored as spill_[0-9a-f]{32}/;

/** What telemetry keeps of a call: names, counts and codes, never arguments or result text
 * (the result is only tested for the spill note the budget added). A search also reports what
 * deferral saves with the session's tools after it. */
export function callFacts(
  { sift, session, settings }: SessionFacts,
  outcome: ExecuteOutcome,
  truncated: CallReport["truncated"],
  durationMs: number,
): CallFacts {
  const search = outcome.route === "meta" && outcome.tool === sift.disclosure.metaToolNames.search;
  return {
    tool: outcome.tool,
    server: sift.upstreams.route(outcome.tool)?.server,
    route: outcome.route,
    isError: outcome.isError === true,
    errorCode: outcome.errorCode,
    truncated,
    spilled: outcome.content.some((block) => block.type === "text" && SPILLED.test(block.text)),
    searchResults: search ? foundTools(outcome.structuredContent).length : undefined,
    revealed: outcome.revealed.length,
    durationMs,
    turnTokensSaved: search
      ? tokensSaved(sift.prepare({ session: session(), ...settings }))
      : undefined,
  };
}
