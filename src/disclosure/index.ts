// Owns: the turn plan (loaded / deferred / meta tools / listing), session reveal stores, the meta tools (search, describe, call), dispatch (unwrap, recursion guard, policy at call time, argument validation, repair, suggestions), preflight.
// Must not import: providers, mcp, cli, or the search/policy implementations (they are injected); budget is imported for fitToBudget and the result budget (call/).
// Stages: plan/ (settings, activation, basis, the turn plan, listing, directory), meta/ (the meta tools, their arguments, their answers), call/ (executeCall as a list of steps, the result budget).

export { suggestNames } from "../internal/index.js";
export { capText, firstSentence, sanitizeText } from "../text/index.js";
export {
  createResultBudget,
  type ResultBudgetSettings,
  spillReader,
} from "./call/result-budget.js";
export { type ArgumentCheck, checkArguments } from "./call/validate-arguments.js";
export {
  createDisclosure,
  type Disclosure,
  type DisclosureMetrics,
  type RequireToolsOptions,
} from "./create-disclosure.js";
export { readSearchArguments } from "./meta/meta-arguments.js";
export { DEFAULT_META_TOOL_NAMES } from "./meta/meta-tools.js";
export { budgetedBasis } from "./plan/budgeted-basis.js";
export { buildDirectory, type Directory } from "./plan/build-directory.js";
export {
  buildListing,
  type Listing,
  type ListingEntry,
  renameListing,
} from "./plan/build-listing.js";
export {
  createPinMatcher,
  createToolClassifier,
  DEFER_RULE,
  loadReason,
  type ToolClass,
} from "./plan/classify-tool.js";
export { compactSignature, type SignatureOptions } from "./plan/compact-signature.js";
export { createDefinitionCounter, definitionText, estimateTokens } from "./plan/estimate-tokens.js";
export { buildPlanBasis, type PlanBasis, type PlanCounters } from "./plan/plan-basis.js";
export { planTurn } from "./plan/plan-turn.js";
export { resolveSettings } from "./plan/resolve-settings.js";
export type { ResolvedSettings } from "./plan/resolved-settings.js";
export {
  createMemoryRevealStore,
  type MemoryRevealStoreOptions,
  type RevealSnapshot,
  type RevealStore,
} from "./reveal-store.js";
export { revealsFromTranscript, type TranscriptEntry } from "./transcript-reveals.js";
export type * from "./types.js";
