// toolsift: tool catalog, search, disclosure and dispatch for LLM agents.
// The root entry loads no Node-only module and no optional peer. It lists what a user needs, by
// name and grouped by task; internals (the CLI's evaluator, the bench baseline, planner and
// tokenizer helpers) stay importable from their folders inside the repository only.
// test/package/root-exports.test.ts snapshots these names: a change here shows in review.
// Node-only loading and the provider formatters have their own subpaths (see package.json).

// ── Result budgets: truncation, loop totals, spilling ──
export {
  applyResultBudget,
  createResultBudgetTracker,
  createSpillStore,
  fitToBudget,
  type ResultBudgetTracker,
  type SessionResultBudgets,
  type SpillStore,
  type TruncateOptions,
  truncateResult,
  truncateText,
} from "./budget/index.js";
// ── Catalog: tool definitions, MCP tools/list results, validation ──
export {
  type Catalog,
  type CatalogChange,
  type CatalogOptions,
  createCatalog,
  type DeferPolicy,
  type FromMCPToolsListOptions,
  fingerprintTools,
  fromMCPToolsList,
  type JsonSchema,
  type JsonValue,
  type ToolAnnotations,
  type ToolCallContext,
  type ToolContent,
  type ToolDefinition,
  type ToolHandler,
  type ToolResult,
  type TruncationStrategy,
  type ValidateToolsOptions,
  type ValidationResult,
  validateTools,
} from "./catalog/index.js";
// ── Cost: tool-definition tokens of a turn vs every tool loaded, per provider ──
export { countDefinitionTokens, type DefinitionTokens } from "./count-definition-tokens.js";
// ── The facade: one object for catalog, search, policy, disclosure, dispatch and providers ──
export {
  type BudgetOptions,
  createToolSift,
  type SearchOptionsOfToolSift,
  type ToolSift,
  type ToolSiftOptions,
} from "./create-toolsift.js";
// ── Disclosure and dispatch: turn plans, meta tools, session reveals, hooks ──
export {
  type AfterCallHook,
  type BeforeCallDecision,
  type BeforeCallHook,
  createDisclosure,
  createMemoryRevealStore,
  DEFAULT_META_TOOL_NAMES,
  type Disclosure,
  type DisclosureMode,
  type DisclosureOptions,
  type DisclosureStrategy,
  type ExecuteInput,
  type ExecuteOutcome,
  type PrepareInput,
  type RequireToolsOptions,
  type RevealStore,
  revealsFromTranscript,
  type TranscriptEntry,
  type TurnPlan,
  type TurnSettings,
} from "./disclosure/index.js";
// ── Errors ──
export {
  InvalidToolError,
  isToolsiftError,
  type MissingTool,
  type MissingToolReason,
  MissingToolsError,
  type ToolIssue,
  ToolNotFoundError,
  ToolsiftError,
  type ToolsiftErrorCode,
} from "./errors.js";
// ── Policy: profiles and allow/deny layers ──
export {
  BUILT_IN_PROFILES,
  createPolicy,
  DEFAULT_PROFILE,
  type Policy,
  type PolicyDecision,
  type PolicyLayer,
  type PolicyOptions,
  type ProfileDefinition,
} from "./policy/index.js";
export type { ProviderResponseOutcome, ProviderTurn, ProviderTurnInput } from "./provider-turns.js";
export type { ProviderId } from "./providers/index.js";
// ── Search: the BM25F index and its query language ──
export {
  createSearchIndex,
  type Embedder,
  type EmbedKind,
  type SavedVectors,
  type SearchHit,
  type SearchIndexOptions,
  type SearchMode,
  type SearchOptions,
  type SearchResult,
  type ServerSummary,
  syncSearchIndex,
  type ToolSearchIndex,
} from "./search/index.js";

// ── Token counting ──
export {
  cl100kCounter,
  estimateCounter,
  loadTokenCounter,
  o200kCounter,
  type TokenCounter,
} from "./tokens/index.js";
