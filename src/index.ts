// toolsift: tool catalog, search, disclosure and dispatch for LLM agents.
// The root entry loads no Node-only module and no optional peer.

export * from "./budget/index.js";
export * from "./catalog/index.js";
export {
  type BudgetOptions,
  createToolSift,
  type ToolSift,
  type ToolSiftOptions,
} from "./create-toolsift.js";
export * from "./disclosure/index.js";
export * from "./errors.js";
export * from "./policy/index.js";
export type { ProviderResponseOutcome, ProviderTurn, ProviderTurnInput } from "./provider-turns.js";
export * from "./search/index.js";
export * from "./tokens/index.js";
