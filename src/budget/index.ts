// Owns: budgets for tool definitions and results, truncation strategies, the result tracker, the spill store.
// Must not import: search, disclosure, providers.
export type {
  AppliedResultBudget,
  ApplyResultBudgetOptions,
  ResultSummarizer,
} from "./apply-result-budget.js";
export { applyResultBudget } from "./apply-result-budget.js";
export type { FitToBudgetOptions, FitToBudgetResult } from "./fit-to-budget.js";
export { fitToBudget, measureDefinition } from "./fit-to-budget.js";
export type { JsonCopy } from "./json-copy.js";
export { jsonCopy, MAX_JSON_DEPTH } from "./json-copy.js";
export type {
  BudgetHit,
  ResultBudgetSnapshot,
  ResultBudgetTracker,
  ResultBudgetTrackerOptions,
} from "./result-budget-tracker.js";
export { createResultBudgetTracker } from "./result-budget-tracker.js";
export type { SessionResultBudgets } from "./session-result-budgets.js";
export { createSessionResultBudgets, MAX_BUDGET_SESSIONS } from "./session-result-budgets.js";
export type { JsonShrink } from "./shrink-json.js";
export { PRESERVED_KEYS, shrinkJson } from "./shrink-json.js";
export type { SpillPage, SpillStore, SpillStoreOptions } from "./spill-store.js";
export { createSpillStore, spillReadToolDefinition, spillText } from "./spill-store.js";
export { toolResultTokens } from "./truncate-mcp.js";
export type { TruncateOptions } from "./truncate-result.js";
export { DEFAULT_MEDIA_TOKENS, truncateResult } from "./truncate-result.js";
export type { TextAnchor, TextCut } from "./truncate-text.js";
export { omissionMarker, truncateText } from "./truncate-text.js";
export type { Truncation } from "./truncate-text-value.js";
export { isToolResult, parseJsonText } from "./truncate-text-value.js";
