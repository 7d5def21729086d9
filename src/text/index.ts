// Owns: text normalisation, tokenisation, stop words, stemming, the common-English word list.
// Must not import: anything in src except internal.
export { COMMON_WORD_COUNT, commonWordBand, commonWordRank } from "./common-words.js";
export { isQueryKey, MAX_KEY_WORDS, queryKey } from "./query-key.js";
export { capText, firstSentence, safeName, sanitizeText } from "./sanitize-text.js";
export { stem } from "./stem.js";
export { isStopWord, STOP_WORDS } from "./stop-words.js";
export {
  forEachPiece,
  isPlainPiece,
  normalizeText,
  splitIdentifier,
  type TokenizeOptions,
  tokenize,
} from "./tokenize.js";
