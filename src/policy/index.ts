// Owns: profiles (built-in and custom), the layered allow/deny pipeline, selectors, explain.
// Must not import: search, disclosure, providers, budget, mcp, cli.
export { BUILT_IN_PROFILES, DEFAULT_PROFILE } from "./built-in-profiles.js";
export { createPolicy } from "./create-policy.js";
export {
  type CompiledSelector,
  compileSelector,
  matchesSelector,
  type SelectorKind,
  type SelectorOptions,
} from "./selector.js";
export type * from "./types.js";
export { unmatchedSelectors } from "./unmatched-selectors.js";
