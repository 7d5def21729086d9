// Owns: token counting (pluggable TokenCounter, exact o200k/cl100k via gpt-tokenizer, fast upper bounds).
// Must not import: search, disclosure, providers (nor anything but errors and internal).
export type { EncodingName } from "./gpt-counters.js";
export { cl100kCounter, isEncodingLoaded, loadTokenCounter, o200kCounter } from "./gpt-counters.js";
export { estimateByteBound, estimateCounter, estimateO200kTokens } from "./o200k-bound.js";
export type { TokenCounter } from "./token-counter.js";
export { countAtMost, countJson, fitsIn, upperBound, utf8Length } from "./token-counter.js";
