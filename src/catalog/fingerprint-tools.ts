/** A stable, platform-neutral content hash of tools (no node:crypto: the root entry runs anywhere). */
import { ToolsiftError } from "../errors.js";
import type { ToolDefinition } from "./types.js";

// Per-tool hashes, keyed by the stored (frozen) tool object, so a catalog re-hashes only what changed.
const toolHashes = new WeakMap<object, string>();

/**
 * Hashes tools into 16 hex characters: canonical JSON (sorted keys, handlers and other functions
 * left out) of each tool, combined in name order, so insertion order does not matter.
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
  const hash = hashString(canonicalJson(tool, tool.name));
  if (Object.isFrozen(tool)) toolHashes.set(tool, hash);
  return hash;
}

/** Combines per-tool hashes that are already in name order. */
export function combineHashes(hashes: readonly string[]): string {
  return hashString(`${hashes.length}|${hashes.join("")}`);
}

/** Compares names by UTF-16 code units, the same everywhere (no locale). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Serialises a value as JSON with object keys sorted; functions and undefined are left out. */
export function canonicalJson(value: unknown, toolName: string): string {
  const parts: string[] = [];
  const stack = new Set<object>();
  const write = (item: unknown): void => {
    if (item === null || typeof item === "number" || typeof item === "boolean") {
      parts.push(JSON.stringify(item) ?? "null");
    } else if (typeof item === "string") {
      parts.push(JSON.stringify(item));
    } else if (typeof item === "bigint") {
      parts.push(JSON.stringify(item.toString()));
    } else if (typeof item === "object") {
      if (stack.has(item)) {
        throw new ToolsiftError(
          "invalid_tool",
          `Tool "${toolName}" contains a circular reference (in its schema or annotations); tool definitions must be plain JSON, so remove the cycle.`,
        );
      }
      stack.add(item);
      if (Array.isArray(item)) {
        parts.push("[");
        item.forEach((element, index) => {
          if (index > 0) parts.push(",");
          if (element === undefined || typeof element === "function") parts.push("null");
          else write(element);
        });
        parts.push("]");
      } else {
        parts.push("{");
        let first = true;
        const record = item as Record<string, unknown>;
        for (const key of Object.keys(record).sort()) {
          const field = record[key];
          if (field === undefined || typeof field === "function" || typeof field === "symbol") {
            continue;
          }
          if (!first) parts.push(",");
          first = false;
          parts.push(JSON.stringify(key), ":");
          write(field);
        }
        parts.push("}");
      }
      stack.delete(item);
    } else {
      parts.push("null");
    }
  };
  write(value);
  return parts.join("");
}

/**
 * Hashes a string with two independent 32-bit lanes (FNV-1a and a multiply-rotate lane), each
 * finished with an avalanche step; returns 16 hex characters.
 */
export function hashString(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b = (b << 13) | (b >>> 19);
  }
  a = avalanche(a ^ Math.imul(b, 0x27d4eb2f));
  b = avalanche(b ^ a);
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
