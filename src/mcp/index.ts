// Owns: upstream MCP connections (stdio, streamable HTTP, SSE), their tools in a ToolSift, the gateway.
// Must not import: cli. Loaded only through the `toolsift/mcp` subpath (it needs the optional MCP SDK).
export type { ElicitationHandler, ElicitationRequest } from "./answer-elicitation.js";
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
export type { ClientRelay } from "./client-relay.js";
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
export type { VariableContext } from "./expand-variables.js";
export { type GatewayConfig, type GatewayMode, parseGatewayConfig } from "./gateway-config.js";
export {
  createGatewaySession,
  type GatewaySessionOptions,
  modeSettings,
} from "./gateway-session.js";
export { InvalidConfigError, loadGatewayConfig } from "./load-gateway-config.js";
export {
  createHttpGateway,
  type HttpGateway,
  type HttpGatewayOptions,
  type RunningGateway,
  type ServeHttpOptions,
  serveHttp,
  serveStdio,
} from "./serve-gateway.js";
export {
  type CallReport,
  createSessionRecorder,
  type RecordedCall,
  type RecordedEvent,
  type RecordedReveal,
  type RecordedSession,
  type SessionRecorder,
  type SessionRecorderOptions,
} from "./session-recorder.js";
export {
  defaultApprovalsFile,
  loadToolPins,
  type PinVerdict,
  pinFingerprint,
  type ToolApprovals,
  type ToolPins,
} from "./tool-pins.js";
export type * from "./types.js";
export type { FeatureRequestOptions, UpstreamFeatures } from "./upstream-features.js";
export { createUpstreamNames, type NamingOption, type UpstreamNames } from "./upstream-names.js";
export {
  createUpstreamServer,
  type UpstreamServer,
  type UpstreamServerOptions,
} from "./upstream-server.js";
