/**
 * The selector grammar shared by profiles and layers. One string picks tools:
 *
 * - `GLOB` or `name:GLOB`: the tool name. Use `name:` when the glob itself holds a colon
 *   (`name:github:create_issue`), since `word:` is otherwise read as a prefix.
 * - `server:GLOB`: the tool's `server` (tools without one never match).
 * - `category:GLOB`: the tool's `category`.
 * - `tag:GLOB`: any of the tool's `tags`.
 * - `profile:GLOB`: any name in the tool's own `profiles` array (declared membership only; to take
 *   in everything another profile holds, use `extends`).
 * - `annotation:GLOB`: any MCP annotation key whose value is `true`, e.g. `annotation:destructiveHint`.
 *
 * Globs are picomatch globs with `*` crossing every character (names may hold `/`, `.`, `:`), so
 * `*delete*`, `mcp__{github,gitlab}__list_*` and `git_?ush` work as a shell user expects. A leading
 * `!` is refused: negation belongs in `deny` / `exclude`, where `explain` can name it.
 *
 * Matching ignores case by default: `deny: ["*delete*"]` must also hide `DELETE_x` (servers name
 * tools in every case, and a deny list that misses one is a hole). `caseSensitive: true` (a policy
 * option) makes name, server and annotation globs exact; categories and tags, labels people type,
 * always ignore case.
 */

import picomatch from "picomatch";
import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { didYouMean } from "../internal/index.js";

/** The kinds of selector, by prefix (`name` is also the kind of a bare glob). */
export type SelectorKind = "name" | "server" | "category" | "tag" | "profile" | "annotation";

const KINDS: readonly SelectorKind[] = [
  "name",
  "server",
  "category",
  "tag",
  "profile",
  "annotation",
];
const ALWAYS_IGNORE_CASE: ReadonlySet<SelectorKind> = new Set(["category", "tag"]);
const PREFIX = /^([A-Za-z][A-Za-z0-9_-]*):/;
const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
const CACHE_LIMIT = 4096;

/** A selector parsed and compiled once; `test` is the fast predicate. */
export interface CompiledSelector {
  /** The selector exactly as written. */
  readonly source: string;
  readonly kind: SelectorKind;
  /** The glob after the prefix. */
  readonly pattern: string;
  test(tool: ToolDefinition): boolean;
}

/** Options of `compileSelector`. */
export interface SelectorOptions {
  /** Match names, servers and annotation keys case-sensitively; default false. */
  caseSensitive?: boolean;
}

const cache = new Map<string, CompiledSelector>();

/** Parses a selector into kind and glob; returns the problem as a sentence when it is invalid. */
export function parseSelector(
  selector: unknown,
): { kind: SelectorKind; pattern: string } | { problem: string } {
  if (typeof selector !== "string") {
    return { problem: `Selector ${JSON.stringify(selector) ?? String(selector)} is not a string.` };
  }
  if (selector.trim() === "") {
    return { problem: 'Empty selector "". Remove it, or write "*" to match every tool.' };
  }
  if (selector !== selector.trim()) {
    return {
      problem: `Selector ${JSON.stringify(selector)} has spaces around it. Write ${JSON.stringify(selector.trim())}.`,
    };
  }
  let kind: SelectorKind = "name";
  let pattern = selector;
  const prefix = PREFIX.exec(selector)?.[1];
  if (prefix !== undefined) {
    if (!(KINDS as readonly string[]).includes(prefix)) {
      return {
        problem:
          `Selector "${selector}" has unknown prefix "${prefix}:".${didYouMean(prefix, KINDS)} ` +
          `Known prefixes: ${KINDS.map((known) => `${known}:`).join(", ")}. To match a tool ` +
          `name that contains ":", write "name:${selector}".`,
      };
    }
    kind = prefix as SelectorKind;
    pattern = selector.slice(prefix.length + 1);
    if (pattern === "") {
      return {
        problem: `Selector "${selector}" has no pattern after "${prefix}:". Write e.g. "${prefix}:*".`,
      };
    }
  }
  if (pattern.startsWith("!")) {
    return {
      problem: `Selector "${selector}" starts with "!": negation is not supported. Put "${pattern.slice(1)}" in deny (or a profile's exclude) instead.`,
    };
  }
  return { kind, pattern };
}

function compileGlob(pattern: string, ignoreCase: boolean): (value: string) => boolean {
  if (!GLOB_CHARS.test(pattern)) {
    // a plain word needs no regex; most allow lists are exact tool names
    if (!ignoreCase) return (value) => value === pattern;
    const lower = pattern.toLowerCase();
    return (value) => value.toLowerCase() === lower;
  }
  // bash: `*` crosses `/`; dot: `*` matches a leading `.`; windows: false keeps `\` an escape
  return picomatch(pattern, { bash: true, dot: true, nocase: ignoreCase, windows: false });
}

function buildTest(kind: SelectorKind, match: (value: string) => boolean) {
  switch (kind) {
    case "name":
      return (tool: ToolDefinition) => match(tool.name);
    case "server":
      return (tool: ToolDefinition) => tool.server !== undefined && match(tool.server);
    case "category":
      return (tool: ToolDefinition) => tool.category !== undefined && match(tool.category);
    case "tag":
      return (tool: ToolDefinition) => tool.tags?.some(match) === true;
    case "profile":
      return (tool: ToolDefinition) => tool.profiles?.some(match) === true;
    case "annotation":
      return (tool: ToolDefinition) => {
        const annotations = tool.annotations;
        if (annotations === undefined) return false;
        for (const key of Object.keys(annotations)) {
          if (annotations[key] === true && match(key)) return true;
        }
        return false;
      };
  }
}

/** A glob compiled on its first match: for the built-in profiles' globs, which a test compiles
 * (so they are known to be valid), and which most instances never match against (picomatch
 * compiling them was a tenth of `createToolSift` from a snapshot in a fresh process). */
function deferredGlob(pattern: string, ignoreCase: boolean): (value: string) => boolean {
  let match: ((value: string) => boolean) | undefined;
  return (value) => {
    match ??= compileGlob(pattern, ignoreCase);
    return match(value);
  };
}

/** Compiles a selector once (cached by its text); throws `invalid_option` when it is invalid.
 * `deferred` (the built-in profiles only) leaves the glob to its first match. */
export function compileSelector(
  selector: string,
  options: SelectorOptions = {},
  deferred = false,
): CompiledSelector {
  const caseSensitive = options.caseSensitive === true;
  const key = `${caseSensitive ? "s" : "i"}${selector}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const parsed = parseSelector(selector);
  if ("problem" in parsed) throw new ToolsiftError("invalid_option", parsed.problem);
  let match: (value: string) => boolean;
  const ignoreCase = !caseSensitive || ALWAYS_IGNORE_CASE.has(parsed.kind);
  try {
    match = (deferred ? deferredGlob : compileGlob)(parsed.pattern, ignoreCase);
  } catch (error) {
    throw new ToolsiftError(
      "invalid_option",
      `Selector "${selector}" is not a valid glob (${(error as Error).message}). Check its brackets and braces.`,
      { cause: error },
    );
  }
  const compiled: CompiledSelector = {
    source: selector,
    kind: parsed.kind,
    pattern: parsed.pattern,
    test: buildTest(parsed.kind, match),
  };
  // selectors come from configuration, so the set is small; the limit only guards against misuse
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

/**
 * Compiles a list of selectors, reporting every invalid one at once. `where` names the list in
 * the message, e.g. `layer "safety" deny`.
 */
export function compileSelectors(
  selectors: unknown,
  where: string,
  options: SelectorOptions = {},
  deferred = false,
): CompiledSelector[] {
  if (!Array.isArray(selectors)) {
    throw new ToolsiftError(
      "invalid_option",
      `${where} must be an array of selector strings, got ${typeof selectors}. Write e.g. ["github_*"].`,
    );
  }
  const problems: string[] = [];
  const compiled: CompiledSelector[] = [];
  for (const selector of selectors) {
    try {
      compiled.push(compileSelector(selector as string, options, deferred));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) {
    throw new ToolsiftError(
      "invalid_option",
      `${where}: ${problems.length} invalid selector(s): ${problems.join(" ")}`,
    );
  }
  return compiled;
}

/** Tests one tool against one selector (grammar above); throws `invalid_option` when invalid. */
export function matchesSelector(
  tool: ToolDefinition,
  selector: string,
  options: SelectorOptions = {},
): boolean {
  return compileSelector(selector, options).test(tool);
}
