/** The token-counter contract and helpers shared by every counter. */

/** Counts tokens in text. `bound`, when present, is a fast upper bound on `count` (never lower). */
export interface TokenCounter {
  /** Stable name, e.g. `o200k_base`; shown in budget notes and benchmarks. */
  readonly name: string;
  /** Exact number of tokens in `text` under this counter's encoding. */
  count(text: string): number;
  /**
   * A cheap upper bound on `count(text)`: budgets call it first and only run `count` when the
   * bound does not already prove the text fits. Omit it when no proven bound exists.
   */
  bound?(text: string): number;
  /**
   * The exact count when it is at most `limit`, otherwise any number above `limit`; lets budgets
   * reject a huge text after reading only about `limit` tokens of it.
   */
  countUpTo?(text: string, limit: number): number;
  /**
   * Most UTF-16 units one token ever covers (128 for o200k and cl100k). With it, budgets know a
   * text longer than `limit × maxTokenLength` is over `limit` without reading it, so a 50 MB
   * result is cut, not counted.
   */
  readonly maxTokenLength?: number;
}

/** Number of bytes `text` takes in UTF-8 (lone surrogates count as 3, like `TextEncoder`). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The cheapest upper bound a counter offers: its `bound`, else its exact `count`. */
export function upperBound(text: string, counter: TokenCounter): number {
  return counter.bound ? counter.bound(text) : counter.count(text);
}

/**
 * Tokens `value` costs once serialised the way results are sent: strings as they are, anything
 * else as compact `JSON.stringify` (`undefined` and functions count as 0).
 */
export function countJson(value: unknown, counter: TokenCounter): number {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === undefined ? 0 : counter.count(text);
}

/** Whether `text` fits in `limit` tokens: tries the counter's bound, then an early-exit count. */
export function fitsIn(text: string, limit: number, counter: TokenCounter): boolean {
  if (counter.bound && counter.bound(text) <= limit) return true;
  return countAtMost(text, limit, counter) <= limit;
}

/** The exact count when it is at most `limit`, otherwise some number above `limit`. */
export function countAtMost(text: string, limit: number, counter: TokenCounter): number {
  return counter.countUpTo ? counter.countUpTo(text, limit) : counter.count(text);
}
