/** A stable, platform-neutral content hash of tools (no node:crypto: the root entry runs anywhere). */
import { ToolsiftError } from "../errors.js";
import type { ToolDefinition } from "./types.js";

// Per-tool hashes, keyed by the stored (frozen) tool object, so a catalog re-hashes only what changed.
const toolHashes = new WeakMap<object, string>();

/**
 * Hashes tools into 16 hex characters: a canonical form of each tool (object keys sorted, handlers
 * and other functions left out) is hashed, and the per-tool hashes are combined in name order, so
 * neither key order nor insertion order matters.
 * Not cryptographic: it detects change, it does not resist forgery.
 */
export function fingerprintTools(tools: readonly ToolDefinition[]): string {
  const sorted = [...tools].sort((a, b) => compareNames(a.name, b.name));
  return combineHashes(sorted.map(fingerprintTool));
}

/** Hashes one tool (cached per object; stored tools are frozen, so the cache stays true). */
export function fingerprintTool(tool: ToolDefinition): string {
  const cached = toolHashes.get(tool);
  if (cached !== undefined) return cached;
  const hash = hashCanonical(tool, tool.name);
  if (Object.isFrozen(tool)) toolHashes.set(tool, hash);
  return hash;
}

/**
 * Records the hash `fingerprintTool` gave a tool in an earlier process, for a tool read back from
 * a store whose integrity the caller has checked (the CLI's checksummed index cache), so the
 * tool is not walked again. Only frozen tools are kept, as in `fingerprintTool`.
 */
export function rememberFingerprint(tool: ToolDefinition, hash: string): void {
  if (Object.isFrozen(tool)) toolHashes.set(tool, hash);
}

/** Combines per-tool hashes that are already in name order. */
export function combineHashes(hashes: readonly string[]): string {
  return hashString(`${hashes.length}|${hashes.join("")}`);
}

/** Compares names by UTF-16 code units, the same everywhere (no locale). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Hashes a value's canonical form: like JSON with sorted keys (functions and undefined left out),
 * but fed to the hash token by token instead of being built as a string.
 */
export function hashCanonical(value: unknown, toolName: string): string {
  const state = new ContentHash();
  walk(state, value, 0, toolName);
  return finish(state.a, state.b);
}

/**
 * The two lanes being fed. Every caller of `feed` passes a `ContentHash`, never an object
 * literal: a second object shape made V8 throw away `feed`'s optimised code ("wrong map")
 * each time the other shape arrived, twice per index restore, which then hashed its 44k
 * characters of combined keys in unoptimised code.
 */
type HashState = ContentHash;

// a top-level loop over locals, so V8 optimises it early (the cold cost is mostly this loop)
function feed(state: HashState, text: string): void {
  let a = state.a;
  let b = state.b;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b = (b << 13) | (b >>> 19);
  }
  state.a = a;
  state.b = b;
}

// every token starts with a tag character and strings carry their length, so no two different
// values feed the same sequence
function walk(state: HashState, item: unknown, depth: number, toolName: string): void {
  if (typeof item === "string") {
    feed(state, `s${item.length}:`);
    feed(state, item);
  } else if (typeof item === "number" || typeof item === "boolean" || typeof item === "bigint") {
    feed(
      state,
      `${typeof item === "number" ? "n" : typeof item === "boolean" ? "b" : "i"}${item};`,
    );
  } else if (item === null || typeof item !== "object") {
    feed(state, "z");
  } else {
    if (depth > MAX_DEPTH) throw tooDeep(toolName);
    if (Array.isArray(item)) {
      feed(state, `[${item.length}`);
      for (const element of item) {
        walk(state, typeof element === "function" ? null : element, depth + 1, toolName);
      }
    } else {
      const record = item as Record<string, unknown>;
      feed(state, "{");
      for (const key of Object.keys(record).sort()) {
        const field = record[key];
        if (field === undefined || typeof field === "function" || typeof field === "symbol") {
          continue;
        }
        feed(state, `k${key.length}:`);
        feed(state, key);
        walk(state, field, depth + 1, toolName);
      }
      feed(state, "}");
    }
  }
}

const MAX_DEPTH = 2_000;

function tooDeep(toolName: string): ToolsiftError {
  return new ToolsiftError(
    "invalid_tool",
    `Tool "${toolName}" contains a circular reference or is nested deeper than ${MAX_DEPTH} levels (in its schema or annotations); tool definitions must be plain JSON, so remove the cycle.`,
  );
}

/**
 * Hashes a string with two independent 32-bit lanes (FNV-1a and a multiply-rotate lane), each
 * finished with an avalanche step; returns 16 hex characters.
 */
export function hashString(text: string): string {
  const state = new ContentHash();
  state.b ^= text.length;
  feed(state, text);
  return finish(state.a, state.b);
}

/**
 * Hashes a sequence of texts and numbers as `hashString` hashes one text, without joining them:
 * each text is fed after its length, so no two sequences feed the same characters.
 */
export class ContentHash {
  a = 0x811c9dc5;
  b = 0x9747b28c;

  /** Feeds a whole number (a count or length) as one step of both lanes. */
  count(value: number): void {
    this.a = Math.imul(this.a ^ value, 0x01000193);
    this.b = Math.imul(this.b ^ value, 0x5bd1e995);
    this.b = (this.b << 13) | (this.b >>> 19);
  }

  /** Feeds a text, after its length. */
  text(value: string): void {
    this.count(value.length);
    feed(this, value);
  }

  /** The hash of what was fed: 16 hex characters. */
  digest(): string {
    return finish(this.a, this.b);
  }
}

function finish(laneA: number, laneB: number): string {
  const a = avalanche(laneA ^ Math.imul(laneB, 0x27d4eb2f));
  const b = avalanche(laneB ^ a);
  return hex(a) + hex(b);
}

function avalanche(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, "0");
}
