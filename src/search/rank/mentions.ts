/**
 * Tools named by other tools. A description often names the step that must come first ("the
 * `station_code` must come from `get-station-code-of-citys`", "call git_set_working_dir
 * first"). When such a tool ranks high, the tool it names is the next thing its caller needs.
 */

import type { ToolDefinition } from "../../catalog/index.js";

/** Runs of characters a tool name may hold; everything else separates words. */
const WORD_RUN = /[A-Za-z0-9_.:/-]+/g;
/** Separators a run may start or end with that no name does ("see list_pages." → `list_pages`). */
const EDGES = /^[_.:/-]+|[_.:/-]+$/g;
/** A name shape: parts joined by `_ - . : /` (`mcp__github__create_issue`), or camelCase. */
const NAME_SHAPE = /^[A-Za-z][A-Za-z0-9]*(?:[_.:/-]+[A-Za-z0-9]+)+$|^[a-z]+(?:[A-Z][a-z0-9]*)+$/;
/**
 * What every name shape holds: a separator between letters or digits, or a camelCase step. A text
 * without one names no tool, and most prose has none: testing it first skips the word scan.
 */
const NAME_HINT = /[A-Za-z0-9][_.:/-]+[A-Za-z0-9]|[a-z][A-Z]/;
/** Longer runs are data (hashes, paths, minified text), not names; skipping them keeps scans linear. */
const MAX_NAME_LENGTH = 128;
/** Most distinct words kept per tool: real descriptions name a few tools, not hundreds. */
const MAX_WORDS = 32;
const NONE: readonly string[] = [];

/**
 * The distinct name-shaped words of a tool's description and its parameters' descriptions, the
 * first `MAX_WORDS` of them. Runs are found by one linear scan and each is tested on its own, so
 * a huge or hostile description costs linear time and little memory.
 */
export function nameShapedWords(tool: ToolDefinition): readonly string[] {
  let out: Set<string> | undefined;
  const collect = (text: unknown) => {
    if (typeof text !== "string" || !NAME_HINT.test(text)) return;
    for (const match of text.matchAll(WORD_RUN)) {
      if (out !== undefined && out.size >= MAX_WORDS) return;
      const run = match[0];
      if (run.length > MAX_NAME_LENGTH + 2) continue;
      const word = run.replace(EDGES, "");
      if (word.length > MAX_NAME_LENGTH || !NAME_SHAPE.test(word)) continue;
      out ??= new Set();
      out.add(word);
    }
  };
  collect(tool.description);
  const properties = tool.inputSchema.properties;
  if (properties !== null && typeof properties === "object") {
    for (const property of Object.values(properties as Record<string, unknown>)) {
      if (property !== null && typeof property === "object")
        collect((property as { description?: unknown }).description);
    }
  }
  return out === undefined ? NONE : [...out];
}

/**
 * For each tool, the other tools of its server that its text names. The words come from
 * `wordsOf` (`companion-facts.ts` keeps them per tool); names resolve to ids at each lookup, so
 * tools added or removed later are seen.
 */
export class MentionIndex {
  constructor(
    private readonly tools: readonly (ToolDefinition | undefined)[],
    private readonly idOf: (name: string) => number,
    private readonly wordsOf: (id: number) => readonly string[],
  ) {}

  /** Ids of the tools on `doc`'s server that its description or parameters name, in text order. */
  mentionedBy(doc: number): readonly number[] {
    const tool = this.tools[doc];
    if (tool === undefined) return [];
    const words = this.wordsOf(doc);
    if (words.length === 0) return [];
    const out: number[] = [];
    for (const word of words) {
      const id = this.idOf(word);
      if (id < 0 || id === doc || this.tools[id]?.server !== tool.server) continue;
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }
}
