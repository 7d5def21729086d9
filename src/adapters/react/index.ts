// Owns: React hooks over a ToolSift instance (`toolsift/react`), built on useSyncExternalStore.
// Must not import: mcp, cli, providers, ai-sdk; `react` is an optional peer, imported only here.
export {
  type SessionToolsState,
  type ToolProfileState,
  type ToolSearchState,
  useSessionTools,
  useToolBudget,
  useToolProfile,
  useToolSearch,
  useToolSiftVersion,
} from "./tool-sift-hooks.js";
