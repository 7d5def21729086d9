// Owns: the Vercel AI SDK adapter (`toolsift/ai-sdk`): tools record, prepareStep/activeTools, calls through sift.execute.
// Must not import: mcp, cli, providers, react; `ai` is an optional peer, imported only here.
export {
  type AISDKAdapter,
  type AISDKAdapterOptions,
  type AISDKNativeSearch,
  type AISDKSession,
  createAISDKAdapter,
} from "./create-ai-sdk-adapter.js";
export { ToolCallFailedError } from "./wrap-ai-sdk-tool.js";
