// Owns: small pure helpers used by two or more folders (hashing, edit distance, "did you mean"
// bounds, error text, the default warning sink).
// Must not import: anything else in src.
export { beforeDeadline } from "./before-deadline.js";
export {
  didYouMean,
  endsAfterSeparator,
  lastSegmentStart,
  nameEditBound,
  PREFIX_DISTANCE,
  PREFIX_WORDS,
  queryEditBound,
  type SuggestOptions,
  suggestNames,
  WHOLE_NAME_LIMIT,
  WORD_MATCH_PENALTY,
  wordEditBound,
} from "./did-you-mean.js";
export { boundedEditDistance } from "./edit-distance.js";
export { errorText } from "./error-text.js";
export { fnv1a32, hashString } from "./hash.js";
export { LRUCache } from "./lru-cache.js";
export { NameIndex } from "./name-index.js";
export { nameSuffix, nameSuffixStart } from "./name-suffix.js";
export {
  bagDistance,
  letterMask,
  maskDistance,
  NearestNames,
  setBagProbe,
  UNBOUNDED,
} from "./nearest-names.js";
export { recordOf } from "./record-of.js";
export { redactUrls } from "./redact-urls.js";
export { capChars, safeCutIndex, safeHead, safeSlice, safeTail, wellFormed } from "./safe-cut.js";
export { syncRequire } from "./sync-require.js";
export { defaultWarn } from "./warn.js";
