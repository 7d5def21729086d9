/** `createMCPToolSift`: a ToolSift filled from upstream MCP servers, closed with one call. */
import { createToolSift, type ToolSift, type ToolSiftOptions } from "../create-toolsift.js";
import { defaultWarn } from "../internal/index.js";
import { unmatchedSelectors } from "../policy/index.js";
import {
  type ConnectServersOptions,
  connectServers,
  type MCPUpstreams,
} from "./connect-servers.js";

/** Options of `createMCPToolSift`: the ToolSift's own options plus the upstream servers. */
export type MCPToolSiftOptions = ToolSiftOptions & ConnectServersOptions;

/** A ToolSift whose catalog includes upstream MCP servers' tools. */
export interface MCPToolSift extends ToolSift {
  readonly upstreams: MCPUpstreams;
  /** Closes every upstream connection and child process. */
  close(): Promise<void>;
}

/**
 * Creates a ToolSift and connects its upstream servers; calls to their tools go to the server
 * that listed them.
 *
 * @example
 * const sift = await createMCPToolSift({
 *   servers: { memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } },
 *   disclosure: { mode: "auto" },
 * });
 * sift.search("create entities");
 * await sift.close();
 */
export async function createMCPToolSift(options: MCPToolSiftOptions): Promise<MCPToolSift> {
  const {
    servers,
    naming,
    log,
    maxRestarts,
    startTimeoutMs,
    clientInfo,
    pins,
    onElicitation,
    auth,
    waitForStart,
    maxSubscriptions,
    ...siftOptions
  } = options;
  const sift = createToolSift(siftOptions);
  const upstreams = await connectServers(sift, {
    servers,
    ...(naming !== undefined ? { naming } : {}),
    ...(log !== undefined ? { log } : {}),
    ...(maxRestarts !== undefined ? { maxRestarts } : {}),
    ...(startTimeoutMs !== undefined ? { startTimeoutMs } : {}),
    ...(clientInfo !== undefined ? { clientInfo } : {}),
    ...(pins !== undefined ? { pins } : {}),
    ...(onElicitation !== undefined ? { onElicitation } : {}),
    ...(auth !== undefined ? { auth } : {}),
    ...(waitForStart !== undefined ? { waitForStart } : {}),
    ...(maxSubscriptions !== undefined ? { maxSubscriptions } : {}),
  });
  // the facade checked the policy against an empty catalog: check it against the servers' tools
  // once they are in (at once, unless they start in the background)
  const warn = siftOptions.onWarning ?? defaultWarn;
  const checkPolicy = () => {
    for (const message of unmatchedSelectors(sift.policy, sift.catalog.list())) warn(message);
  };
  if (waitForStart === false) void upstreams.started.then(checkPolicy);
  else checkPolicy();
  const close = async () => {
    await upstreams.close();
    // approvals of first-seen tools are saved in the background: on disk before close settles
    await pins?.flush();
  };
  return Object.assign(sift, { upstreams, close });
}
