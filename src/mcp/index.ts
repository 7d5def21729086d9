// Owns: upstream MCP connections (stdio, streamable HTTP, SSE), their tools in a ToolSift, the gateway.
// Must not import: cli. Loaded only through the `toolsift/mcp` subpath (it needs the optional MCP SDK).

export { checkGatewayAuth, type GatewayAuthOptions } from "./auth/bearer-guard.js";
export {
  type LoginOutcome,
  type LoginUpstreamOptions,
  loginUpstream,
} from "./auth/login-upstream.js";
export {
  createTokenStore,
  defaultTokenFile,
  type StoredLogin,
  type TokenStore,
} from "./auth/token-store.js";
export { NeedsLoginError, type UpstreamAuthOptions } from "./auth/upstream-auth.js";

export { type EmbedderConfig, parseEmbedderConfig } from "./config/embedder-config.js";
export type { VariableContext } from "./config/expand-variables.js";
export {
  type GatewayConfig,
  type GatewayMode,
  parseGatewayConfig,
} from "./config/gateway-config.js";
export { InvalidConfigError, loadGatewayConfig } from "./config/load-gateway-config.js";
export {
  type ConnectServersOptions,
  connectServers,
  type MCPUpstreams,
} from "./connect-servers.js";
export {
  createMCPToolSift,
  type MCPToolSift,
  type MCPToolSiftOptions,
} from "./create-mcp-toolsift.js";
export type { FeatureRequestOptions, UpstreamFeatures } from "./features/upstream-features.js";
export type { ElicitationHandler, ElicitationRequest } from "./relay/answer-elicitation.js";
export type { ClientRelay } from "./relay/client-relay.js";
export {
  createGatewaySession,
  type GatewaySessionOptions,
  modeSettings,
} from "./serve/gateway-session.js";
export { createHttpGateway, type HttpGateway } from "./serve/http-gateway.js";
export type { HttpGatewayOptions } from "./serve/http-gateway-options.js";
export { HTTP_LIMIT_DEFAULTS, type HttpLimits } from "./serve/http-limits.js";
export {
  checkHttpListen,
  type RunningGateway,
  type ServeHttpOptions,
  serveHttp,
  serveStdio,
} from "./serve/serve-gateway.js";
export {
  type CallReport,
  createSessionRecorder,
  type RecordedCall,
  type RecordedEvent,
  type RecordedReveal,
  type RecordedSession,
  type SessionRecorder,
  type SessionRecorderOptions,
} from "./serve/session-recorder.js";
export { CALL_STREAM_DEFAULTS, type CallStreamOptions } from "./state/call-streams.js";
export { createMemorySessionStore } from "./state/memory-session-store.js";
export {
  createRedisSessionStore,
  type RedisSessionStoreOptions,
} from "./state/redis-session-store.js";
export { createReplicaState, type ReplicaState } from "./state/replica-gateway.js";
export {
  SESSION_STORE_DEFAULTS,
  type SessionRecord,
  type SessionStore,
  type SessionStoreLimits,
  type StateMessage,
} from "./state/session-store.js";
export { OTHER_REPLICAS } from "./state/shared-budgets.js";
export { sharePins } from "./state/shared-pins.js";
export { shareRecorder } from "./state/shared-recorder.js";
export type { SharedSpills } from "./state/shared-spills.js";
export { createSharedTokenStore } from "./state/shared-token-store.js";
export {
  type CallFacts,
  type CallTrace,
  createGatewayTelemetry,
  type GatewayTelemetry,
  type ListFacts,
  loadGatewayTelemetry,
  type OpenTelemetryAPI,
} from "./telemetry/gateway-telemetry.js";
export {
  defaultApprovalsFile,
  loadToolPins,
  type PinVerdict,
  pinFingerprint,
  type ToolApprovals,
  type ToolPins,
} from "./tools/tool-pins.js";
export {
  createUpstreamNames,
  type NamingOption,
  type UpstreamNames,
} from "./tools/upstream-names.js";
export type * from "./types.js";
export type { UpstreamStart } from "./upstream/upstream-run.js";
export {
  createUpstreamServer,
  type UpstreamServer,
  type UpstreamServerOptions,
} from "./upstream/upstream-server.js";
