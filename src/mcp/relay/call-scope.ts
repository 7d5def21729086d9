/**
 * What a gateway request carries down to the upstream call it causes, without threading it
 * through ToolSift's dispatch: the client's progress callback and its server→client relay. Set by the gateway session around
 * `sift.execute`, read by the routing function.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { BudgetHit } from "../../budget/index.js";
import type { ClientRelay } from "./client-relay.js";

/** A progress report as MCP sends it. */
export interface UpstreamProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** The per-request scope of one client call. */
export interface CallScope {
  onProgress?: (progress: UpstreamProgress) => void;
  /** Answers the upstream's sampling/elicitation/roots requests made during the call. */
  relay?: ClientRelay;
  /** Told when the result budget cuts this call's result (the session recorder notes it). */
  onBudgetHit?: (hit: BudgetHit) => void;
}

export const callScope = new AsyncLocalStorage<CallScope>();
