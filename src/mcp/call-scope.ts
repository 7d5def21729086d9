/**
 * What a gateway request carries down to the upstream call it causes, without threading it
 * through ToolSift's dispatch: the client's progress callback. Set by the gateway session around
 * `sift.execute`, read by the routing function.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** A progress report as MCP sends it. */
export interface UpstreamProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** The per-request scope of one client call. */
export interface CallScope {
  onProgress?: (progress: UpstreamProgress) => void;
}

export const callScope = new AsyncLocalStorage<CallScope>();
