/** The key under which the index files a tool name's words, to give whole-phrase matches a bonus. */

import { STOP_WORDS, stem } from "../../text/index.js";

/** The words of a name's last segment, stemmed, as one key (`create_issue` → `creat issu`). */
export function phraseKey(words: readonly string[]): string {
  return words
    .filter((word) => !STOP_WORDS.has(word))
    .map((word) => stem(word))
    .join(" ");
}
