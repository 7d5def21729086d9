/**
 * Structure-keeping truncation of JSON values: keys and nesting stay, long arrays keep their
 * first (or last) items plus a marker element, long strings keep a slice plus a marker, error
 * fields and small scalars are kept whole, and the budget is shared among children in
 * proportion to their size, depth first. The output is always a JSON value within the budget.
 */

import type { JsonValue } from "../catalog/index.js";
import { safeHead, safeTail } from "../internal/index.js";
import type { TokenCounter } from "../tokens/index.js";
import { upperBound } from "../tokens/index.js";
import { childPath, jsonCopy, MAX_JSON_DEPTH, setKey } from "./json-copy.js";
import type { TextAnchor } from "./truncate-text.js";
import { boundUnlessOver, countNear, fitsTokens, measureTokens } from "./truncate-text.js";

/** The outcome of shrinking a JSON value. */
export interface JsonShrink {
  value: JsonValue;
  /** Tokens of `JSON.stringify(value)`; exact unless an uncut long value (`originalExact` false). */
  tokens: number;
  truncated: boolean;
  originalTokens: number;
  originalExact: boolean;
  /** What was cut, one line per place, e.g. `$.items: kept 3 of 120 items`. */
  notes: string[];
}

/** Keys whose values are kept whole whenever they fit: they explain failures. */
export const PRESERVED_KEYS: ReadonlySet<string> = new Set([
  "error",
  "errors",
  "message",
  "code",
  "status",
  "statusCode",
  "status_code",
  "error_code",
  "errorCode",
  "error_description",
  "reason",
  "detail",
  "isError",
]);

const PLACEHOLDER_COST = 8; // tokens of a cut marker or placeholder such as `{"…": "3 keys omitted"}`
const MIN_SHARE = 24; // smallest budget worth giving an array item that must itself be cut
const NOTE_LIMIT = 20;

interface Shrinker {
  ratio: number; // real tokens per bound token, from a sample
  counter: TokenCounter;
  anchor: TextAnchor;
  sizes: WeakMap<object, number>;
  notes: string[];
}

function note(state: Shrinker, line: string): void {
  if (state.notes.length < NOTE_LIMIT) state.notes.push(line);
  else if (state.notes.length === NOTE_LIMIT) state.notes.push("… more cuts not listed");
}

const LONG_STRING = 65_536; // past this a string's size comes from a sample, not a full pass

/**
 * Estimated tokens of a value's compact JSON (the sample-calibrated bound, summed by part). With
 * `cap`, stops once the sum passes it and returns that partial sum: callers only need to know a
 * part is too big, and a 50 MB result then costs what its kept part costs.
 */
function sizeOf(node: JsonValue, state: Shrinker, cap = Number.POSITIVE_INFINITY): number {
  if (node === null || typeof node !== "object") {
    // quotes and escapes are left out: sizes only steer the cut, the result is counted exactly
    const text = typeof node === "string" ? node : String(node);
    const bound =
      text.length > LONG_STRING
        ? (upperBound(safeHead(text, 4_096), state.counter) * text.length) / 4_096
        : upperBound(text, state.counter);
    return Math.max(1, Math.ceil((bound + 1) * state.ratio));
  }
  const cached = state.sizes.get(node);
  if (cached !== undefined) return cached;
  let size = 2;
  if (Array.isArray(node)) {
    for (const item of node) {
      size += sizeOf(item, state, cap - size) + 1;
      if (size > cap) return size;
    }
  } else {
    for (const key of Object.keys(node)) {
      size += sizeOf(key, state) + sizeOf(node[key] as JsonValue, state, cap - size) + 1;
      if (size > cap) return size;
    }
  }
  state.sizes.set(node, size);
  return size;
}

function cutString(text: string, budget: number, path: string, state: Shrinker): string {
  const size = sizeOf(text, state);
  if (size <= PLACEHOLDER_COST + 1) return text; // a marker would cost as much as the text
  const keep = Math.max(0, Math.floor((text.length * (budget - 8)) / size));
  const omitted = text.length - keep;
  note(state, `${path}: kept ${keep} of ${text.length} characters`);
  const marker = `[… ${omitted} chars cut …]`;
  if (keep === 0) return marker;
  if (state.anchor === "tail") return `${marker}${safeTail(text, keep)}`;
  if (state.anchor === "head") return `${safeHead(text, keep)}${marker}`;
  const half = Math.ceil(keep / 2);
  return `${safeHead(text, half)}${marker}${safeTail(text, keep - half)}`;
}

function placeholder(node: JsonValue, path: string, state: Shrinker): JsonValue {
  if (Array.isArray(node)) {
    note(state, `${path}: dropped all ${node.length} items`);
    return [`… ${node.length} items omitted`];
  }
  if (node !== null && typeof node === "object") {
    const keys = Object.keys(node).length;
    note(state, `${path}: dropped an object with ${keys} keys`);
    return { "…": `${keys} keys omitted` };
  }
  if (typeof node === "string") return cutString(node, 0, path, state);
  return node;
}

/** Shrinks `node` so its estimated size is at most `budget`. */
function shrinkNode(node: JsonValue, budget: number, path: string, state: Shrinker): JsonValue {
  const size = sizeOf(node, state, budget);
  if (size <= budget) return node;
  if (typeof node === "string") return cutString(node, budget, path, state);
  if (node === null || typeof node !== "object") return node;
  if (budget < PLACEHOLDER_COST) return placeholder(node, path, state);
  return Array.isArray(node)
    ? shrinkArray(node, budget, path, state)
    : shrinkObject(node, budget, path, state);
}

function shrinkArray(
  items: JsonValue[],
  budget: number,
  path: string,
  state: Shrinker,
): JsonValue[] {
  const order = anchorOrder(items.length, state.anchor);
  const room = budget - 10; // brackets and the marker element
  const kept = new Map<number, JsonValue>();
  let used = 0;
  for (const index of order) {
    const item = items[index] as JsonValue;
    const itemSize = sizeOf(item, state, room - used) + 1;
    if (used + itemSize <= room) {
      kept.set(index, item);
      used += itemSize;
      continue;
    }
    // the next item does not fit whole: cut it if it would get a useful share, then stop
    const worthCutting = itemSize > PLACEHOLDER_COST + 1;
    if (worthCutting && (room - used >= MIN_SHARE || kept.size === 0)) {
      kept.set(index, shrinkNode(item, room - used - 1, `${path}[${index}]`, state));
    }
    break;
  }
  const omitted = items.length - kept.size;
  if (omitted === 0)
    return [...kept.keys()].sort((a, b) => a - b).map((i) => kept.get(i) as JsonValue);
  note(state, `${path}: kept ${kept.size} of ${items.length} items`);
  const positions = [...kept.keys()].sort((a, b) => a - b);
  const output: JsonValue[] = [];
  let markerPlaced = false;
  let expected = 0;
  for (const position of positions) {
    if (position !== expected && !markerPlaced) {
      output.push(`… ${omitted} items omitted`);
      markerPlaced = true;
    }
    output.push(kept.get(position) as JsonValue);
    expected = position + 1;
  }
  if (!markerPlaced) output.push(`… ${omitted} more items`);
  return output;
}

/** Item indexes in the order an anchor keeps them: first ones, last ones, or alternating. */
function anchorOrder(length: number, anchor: TextAnchor): number[] {
  const order: number[] = [];
  if (anchor === "head") for (let index = 0; index < length; index++) order.push(index);
  else if (anchor === "tail") for (let index = length - 1; index >= 0; index--) order.push(index);
  else {
    for (let low = 0, high = length - 1; low <= high; low++, high--) {
      order.push(low);
      if (high !== low) order.push(high);
    }
  }
  return order;
}

/** Cheapest form a value can take once cut: a marker or placeholder of about eight tokens. */
function minimumCost(value: JsonValue, state: Shrinker): number {
  return Math.min(sizeOf(value, state, PLACEHOLDER_COST), PLACEHOLDER_COST);
}

function shrinkObject(
  node: { [key: string]: JsonValue },
  budget: number,
  path: string,
  state: Shrinker,
): JsonValue {
  const entries = Object.entries(node);
  // preserved keys first, so they survive even when not every key fits
  entries.sort(([a], [b]) => Number(PRESERVED_KEYS.has(b)) - Number(PRESERVED_KEYS.has(a)));
  let room = budget - 2;
  const admitted: [string, JsonValue][] = [];
  for (const [key, value] of entries) {
    const cost = sizeOf(key, state) + 2 + minimumCost(value, state);
    const markerRoom = admitted.length + 1 < entries.length ? PLACEHOLDER_COST + 2 : 0;
    if (cost > room - markerRoom) break;
    admitted.push([key, value]);
    room -= sizeOf(key, state) + 2;
  }
  if (admitted.length < entries.length) room -= PLACEHOLDER_COST + 2;
  // water-filling: preserved keys first, then the smallest values, each taking what it needs up
  // to an equal share of what is left, so short fields survive whole and long ones share the rest
  // sizes are capped at the budget: past it, a value is cut anyway
  const capped = new Map(admitted.map(([key, value]) => [key, sizeOf(value, state, budget)]));
  const order = [...admitted].sort(
    ([keyA], [keyB]) =>
      Number(PRESERVED_KEYS.has(keyB)) - Number(PRESERVED_KEYS.has(keyA)) ||
      (capped.get(keyA) ?? 0) - (capped.get(keyB) ?? 0),
  );
  let reserved = order.reduce((sum, [, value]) => sum + minimumCost(value, state), 0);
  const output = new Map<string, JsonValue>();
  order.forEach(([key, value], position) => {
    const floor = minimumCost(value, state);
    reserved -= floor;
    const fair = PRESERVED_KEYS.has(key)
      ? room - reserved
      : Math.floor((room - reserved) / (order.length - position));
    const give = Math.min(capped.get(key) ?? 0, Math.max(floor, fair));
    output.set(key, shrinkNode(value, give, childPath(path, key), state));
    room -= give;
  });
  const ordered: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(node)) {
    const value = output.get(key);
    if (value !== undefined) setKey(ordered, key, value);
  }
  if (admitted.length < entries.length) {
    note(state, `${path}: kept ${admitted.length} of ${entries.length} keys`);
    setKey(ordered, "…", `${entries.length - admitted.length} more keys omitted`);
  }
  return ordered;
}

const FALLBACKS: JsonValue[] = ["[… result truncated …]", "[…]", "…", null];

/**
 * Shrinks a JSON value until its compact serialisation is at most `maxTokens` (≥ 1) tokens.
 * `text` (and its counter bound) may be passed when the caller already has them.
 */
export function shrinkJson(
  value: JsonValue,
  maxTokens: number,
  counter: TokenCounter,
  anchor: TextAnchor,
  text: string = JSON.stringify(value),
  bound: number | undefined = boundUnlessOver(text, maxTokens, counter),
): JsonShrink {
  if (fitsTokens(text, maxTokens, counter, bound)) {
    const measured = measureTokens(text, counter, bound); // exact below 16k characters
    const tokens = Math.min(measured.tokens, maxTokens);
    return {
      value,
      tokens,
      truncated: false,
      originalTokens: tokens,
      originalExact: measured.exact,
      notes: [],
    };
  }
  const original = measureTokens(text, counter, bound);
  if (!deeperThan(value, MAX_JSON_DEPTH)) {
    return shrinkToFit(value, maxTokens, counter, anchor, original);
  }
  // the shrinker recurses per level: cut the depth first (iteratively checked), then shrink
  const copy = jsonCopy(value);
  const shrunk = shrinkToFit(copy.value ?? null, maxTokens, counter, anchor, original);
  return { ...shrunk, notes: [...copy.notes, ...shrunk.notes] };
}

/** Whether a JSON value nests deeper than `limit` levels; iterative, so any depth is safe. */
function deeperThan(value: JsonValue, limit: number): boolean {
  const stack: [JsonValue, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (node === null || typeof node !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

function shrinkToFit(
  value: JsonValue,
  maxTokens: number,
  counter: TokenCounter,
  anchor: TextAnchor,
  original: { tokens: number; exact: boolean; ratio: number },
): JsonShrink {
  const ratio = original.ratio;
  const sizes = new WeakMap<object, number>();
  let target = maxTokens;
  let best: JsonShrink | undefined;
  for (let attempt = 0; attempt < 8 && target >= 1; attempt++) {
    const state: Shrinker = { ratio, counter, anchor, sizes, notes: [] };
    const shrunk = shrinkNode(value, target, "$", state);
    const tokens = countNear(JSON.stringify(shrunk), maxTokens, counter);
    if (tokens <= maxTokens) {
      if (!best || tokens > best.tokens) {
        best = {
          value: shrunk,
          tokens,
          truncated: true,
          originalTokens: original.tokens,
          originalExact: original.exact,
          notes: state.notes,
        };
      }
      if (tokens >= maxTokens * 0.85) break;
      target = Math.floor(target * Math.min(1.5, (maxTokens / Math.max(1, tokens)) * 0.97));
    } else {
      target = Math.floor(target * Math.min(0.95, (maxTokens / tokens) * 0.95));
    }
  }
  if (best) return best;
  for (const fallback of FALLBACKS) {
    const tokens = counter.count(JSON.stringify(fallback));
    if (tokens <= maxTokens) {
      return {
        value: fallback,
        tokens,
        truncated: true,
        originalTokens: original.tokens,
        originalExact: original.exact,
        notes: ["$: whole value replaced by a marker (budget too small)"],
      };
    }
  }
  return {
    value: null,
    tokens: 1,
    truncated: true,
    originalTokens: original.tokens,
    originalExact: original.exact,
    notes: ["$: whole value dropped"],
  };
}
