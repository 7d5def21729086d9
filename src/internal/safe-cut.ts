/**
 * Cuts that never split a UTF-16 surrogate pair. Half a pair left at a cut is a lone surrogate,
 * which strict JSON parsers and UTF-8 encoders reject or replace; every place toolsift shortens
 * text (text caps, JSON string cuts, description caps, spill pages, token-count chunks) goes
 * through these so a cut lands before or after a whole character.
 */

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Moves `index` (a position between UTF-16 units, clamped to `[0, text.length]`) off the middle
 * of a surrogate pair: down to the pair's start by default, up past its end with `up`.
 */
export function safeCutIndex(text: string, index: number, up = false): number {
  const at = Math.max(0, Math.min(text.length, Math.floor(index)));
  if (at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at))) {
    return up ? at + 1 : at - 1;
  }
  return at;
}

/** The first `length` units of `text`, one shorter when the cut would split a pair. */
export function safeHead(text: string, length: number): string {
  return text.slice(0, safeCutIndex(text, length));
}

/** The last `length` units of `text`, one shorter when the cut would split a pair. */
export function safeTail(text: string, length: number): string {
  if (length <= 0) return "";
  return text.slice(safeCutIndex(text, text.length - length, true));
}

/** `text.slice(start, end)` with both ends moved inward off the middle of a pair. */
export function safeSlice(text: string, start: number, end: number): string {
  return text.slice(safeCutIndex(text, start, true), safeCutIndex(text, end));
}

/** `text` capped at `maxChars` UTF-16 units, ending with `ellipsis` (default `…`) when cut. */
export function capChars(text: string, maxChars: number, ellipsis = "…"): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= ellipsis.length) return safeHead(text, Math.max(0, maxChars));
  return `${safeHead(text, maxChars - ellipsis.length)}${ellipsis}`;
}

// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` with every lone surrogate replaced by U+FFFD. Model input can carry one (a query, a tool
 * name, an argument); echoed back raw it makes the response unencodable as UTF-8 and strict JSON
 * parsers reject it, so every echo of model text goes through here.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\ufffd");
}
