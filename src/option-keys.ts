/**
 * The option names `createToolSift` knows, per options object, and the check that rejects any
 * other: a mistyped option (`disclosure: { mdoe: "on" }`) used to be ignored in silence, leaving
 * the user to wonder why nothing changed.
 */

import { ToolsiftError } from "./errors.js";
import { suggestNames } from "./internal/index.js";
import type {
  BudgetOptions,
  SearchOptionsOfToolSift,
  ToolSiftOptions,
} from "./toolsift-options.js";

/** Every key of `T`, listed once: the compiler rejects a list that misses or invents one. */
type AllKeys<T> = readonly (keyof T)[] & { length: number };
function keysOf<T>() {
  return <const K extends readonly (keyof T)[]>(
    keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never),
  ): AllKeys<T> => keys;
}

type DisclosureOptionsOfToolSift = NonNullable<ToolSiftOptions["disclosure"]>;
type PolicyOptionsOfToolSift = NonNullable<ToolSiftOptions["policy"]>;

const TOP = keysOf<ToolSiftOptions>()([
  "tools",
  "index",
  "catalog",
  "duplicates",
  "onWarning",
  "onCall",
  "disclosure",
  "policy",
  "budget",
  "tokens",
  "search",
  "learning",
]);

type LearningOptionsOfToolSift = NonNullable<ToolSiftOptions["learning"]>;

const NESTED: {
  [K in "disclosure" | "policy" | "budget" | "search" | "learning"]: AllKeys<unknown>;
} = {
  disclosure: keysOf<DisclosureOptionsOfToolSift>()([
    "mode",
    "strategy",
    "auto",
    "listing",
    "directory",
    "neverDefer",
    "contextWindow",
    "nativeSearch",
    "keepMetaTools",
    "definitionBudget",
    "maxTools",
    "store",
    "metaToolNames",
    "hooks",
    "timeoutMs",
    "searchLimit",
    "searchResponseTokens",
    "describeResponseTokens",
    "sanitizeDescription",
    "withholdWeak",
    "uncheckedSchemas",
  ]) as AllKeys<unknown>,
  policy: keysOf<PolicyOptionsOfToolSift>()([
    "profile",
    "profiles",
    "layers",
    "rules",
  ]) as AllKeys<unknown>,
  budget: keysOf<BudgetOptions>()([
    "toolDefinitions",
    "perToolResult",
    "totalResults",
    "onBudgetHit",
    "summarize",
    "summarizeThreshold",
    "spill",
  ]) as AllKeys<unknown>,
  search: keysOf<SearchOptionsOfToolSift>()([
    "ranking",
    "embedder",
    "semanticWeight",
    "embedTimeoutMs",
    "vectors",
  ]) as AllKeys<unknown>,
  learning: keysOf<LearningOptionsOfToolSift>()([
    "minSessions",
    "halfLifeDays",
    "maxWordsPerTool",
    "maxSessionsPerWord",
    "maxWordsPerQuery",
    "maxEntries",
    "now",
    "windowMs",
    "initial",
    "sessionScope",
  ]) as AllKeys<unknown>,
};

/** Options that belong to another entry point, with where to pass them. */
const ELSEWHERE: Record<string, string> = {
  servers: "`servers` belongs to createMCPToolSift (toolsift/mcp), which connects MCP servers",
  profile: "the profile goes under `policy: { profile }`",
  profiles: "profiles go under `policy: { profiles }`",
  embedder: "the embedder goes under `search: { embedder }`",
  mode: "the disclosure mode goes under `disclosure: { mode }`",
};

function checkKeys(value: unknown, known: readonly string[], where: string): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const elsewhere = where === "createToolSift" ? ELSEWHERE[key] : undefined;
    const near = suggestNames(key, known, { max: 1, suffixes: false })[0];
    const hint = elsewhere
      ? ` (${elsewhere}).`
      : near
        ? `. Did you mean "${near}"?`
        : `. Known options: ${known.join(", ")}.`;
    throw new ToolsiftError(
      "invalid_option",
      `${where} has no option "${key}"${hint}`.replace(/\.\.$/, "."),
    );
  }
}

/** Throws `invalid_option` for an option name `createToolSift` does not know, naming the closest. */
export function checkOptionKeys(options: ToolSiftOptions): void {
  checkKeys(options, TOP, "createToolSift");
  for (const [name, known] of Object.entries(NESTED)) {
    checkKeys(options[name as keyof typeof NESTED], known, `createToolSift's ${name}`);
  }
}
