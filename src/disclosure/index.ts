// Owns: the turn plan (loaded / deferred / meta tools / listing), session reveal stores, the meta tools (search, describe, call), dispatch (unwrap, recursion guard, policy at call time, argument validation, repair, suggestions), preflight.
// Must not import: providers, mcp, cli (and, until the lead wires them, the search/policy implementations: they are injected; budget is imported for fitToBudget).
export { budgetedBasis } from "./budgeted-basis.js";
export { buildDirectory, type Directory } from "./build-directory.js";
export { buildListing, type Listing, type ListingEntry } from "./build-listing.js";
export {
  createPinMatcher,
  createToolClassifier,
  DEFER_RULE,
  loadReason,
  type ToolClass,
} from "./classify-tool.js";
export { compactSignature, type SignatureOptions } from "./compact-signature.js";
export {
  createDisclosure,
  type Disclosure,
  type DisclosureMetrics,
  type RequireToolsOptions,
} from "./create-disclosure.js";
export { createDefinitionCounter, definitionText, estimateTokens } from "./estimate-tokens.js";
export { DEFAULT_META_TOOL_NAMES } from "./meta-tools.js";
export { buildPlanBasis, type PlanBasis } from "./plan-basis.js";
export { type PlanCounters, planTurn } from "./plan-turn.js";
export { type ResolvedSettings, resolveSettings } from "./resolve-settings.js";
export {
  createMemoryRevealStore,
  type MemoryRevealStoreOptions,
  type RevealSnapshot,
  type RevealStore,
} from "./reveal-store.js";
export { capText, firstSentence, sanitizeText } from "./sanitize-text.js";
export { suggestNames } from "./suggest-names.js";
export { revealsFromTranscript, type TranscriptEntry } from "./transcript-reveals.js";
export type * from "./types.js";
export { type ArgumentCheck, checkArguments } from "./validate-arguments.js";
