/** The inspector's data: catalog, search and cost views of one catalog under each profile. */
import type { ToolDefinition } from "../catalog/index.js";
import { countDefinitionTokens } from "../count-definition-tokens.js";
import { createToolSift, type ToolSift } from "../create-toolsift.js";
import {
  compactSignature,
  DEFAULT_META_TOOL_NAMES,
  firstSentence,
  loadReason,
} from "../disclosure/index.js";
import { ToolsiftError } from "../errors.js";
import type { UsageLearning } from "../learning/index.js";
import type { ProviderId } from "../providers/index.js";
import type { SearchResult } from "../search/index.js";
import type { SearchOptionsOfToolSift } from "../toolsift-options.js";
import { disclosureInWords } from "./disclosure-words.js";

/** Provider formats of the cost view, in the order the page shows them. */
const FORMATS: readonly { name: string; provider: ProviderId }[] = [
  { name: "Anthropic", provider: "anthropic" },
  { name: "OpenAI Chat", provider: "openai-chat" },
  { name: "OpenAI Responses", provider: "openai-responses" },
  { name: "Gemini", provider: "gemini" },
];

/** Tools shown per query in the playground and revealed by the cost view's reveal query. */
const MAX_LIMIT = 25;

export interface InspectorModel {
  readonly profiles: readonly string[];
  catalog(profile?: string): CatalogView;
  search(query: string, options?: { profile?: string; limit?: number }): Promise<SearchView>;
  cost(options?: { profile?: string; reveal?: string }): Promise<CostView>;
}

export interface CatalogTool {
  name: string;
  tokens: number;
  state: "loaded" | "deferred" | "hidden" | "meta";
  /** The deciding policy layer and rule (for hidden tools: the layer that hid it). */
  layer?: string;
  rule?: string;
  selector?: string;
  /** Index into `reasons`: the policy's sentence, shared by the many tools it applies to. */
  reason: number;
}

export interface CatalogView {
  profile: string;
  profiles: readonly string[];
  total: number;
  counts: Record<CatalogTool["state"], number>;
  /** `tokens`: all the server's tools; `visibleTokens`: those the profile lets through. */
  servers: { server: string; tokens: number; visibleTokens: number; tools: CatalogTool[] }[];
  reasons: string[];
  /** `reason` as the policy engine gives it; `words`, the same said for a reader. */
  disclosure: { active: boolean; reason: string; words: string };
}

export interface SearchView {
  profile: string;
  result: Omit<SearchResult, "hits"> & { hits: Record<string, unknown>[] };
  /** What a model receives from the search meta tool for this query. */
  model: { tool: string; text: string; isError: boolean; revealed: string[] };
}

export interface CostView {
  profile: string;
  visible: number;
  reveal: string;
  revealed: string[];
  formats: {
    name: string;
    provider: ProviderId;
    all: number;
    firstTurn: number;
    afterReveals: number;
  }[];
}

/** The MCP tools/list form of a tool, whose tokens the catalog view shows. */
function listed({ name, description, inputSchema }: ToolDefinition) {
  return { name, description, inputSchema };
}

/** Runs the search meta tool as a model would, in a new session (so it reveals nothing else). */
async function searchAsModel(
  sift: ToolSift,
  query: string,
  limit: number,
  session: string,
): Promise<SearchView["model"]> {
  const plan = sift.prepare({ session });
  if (!plan.metaTools.some((tool) => tool.name === DEFAULT_META_TOOL_NAMES.search)) {
    // a small catalog is sent whole: the model has no search tool, so there is no text to show
    return {
      tool: DEFAULT_META_TOOL_NAMES.search,
      text: `No ${DEFAULT_META_TOOL_NAMES.search} this turn: the model sees every tool directly (${plan.reason}).`,
      isError: false,
      revealed: [],
    };
  }
  const outcome = await sift.execute({
    session,
    name: DEFAULT_META_TOOL_NAMES.search,
    arguments: { queries: [query], limit },
  });
  const text = outcome.content
    .map((block) => (block.type === "text" ? block.text : JSON.stringify(block)))
    .join("\n");
  return {
    tool: DEFAULT_META_TOOL_NAMES.search,
    text,
    isError: outcome.isError === true,
    revealed: outcome.revealed,
  };
}

/** The policy layer and rule that decided a tool, as the catalog view shows them. */
function decidingRule(
  decision: ReturnType<ToolSift["explain"]>,
): Pick<CatalogTool, "layer" | "rule" | "selector"> {
  const deciding =
    "allowedBy" in decision ? decision.allowedBy[decision.allowedBy.length - 1] : decision;
  if (!deciding || !("layer" in deciding)) return {};
  return {
    layer: deciding.layer,
    rule: deciding.rule,
    ...(deciding.selector ? { selector: deciding.selector } : {}),
  };
}

/** The catalog view of one profile: each tool's state and reason, grouped by server. */
function buildCatalogView(
  sift: ToolSift,
  profiles: readonly string[],
  tokens: ReadonlyMap<string, number>,
): CatalogView {
  const plan = sift.prepare({ session: "inspector-catalog" });
  const loaded = new Set(plan.loaded.map((tool) => tool.name));
  const reasons: string[] = [];
  const reasonIndex = new Map<string, number>();
  const servers = new Map<string, CatalogView["servers"][number]>();
  const counts = { loaded: 0, deferred: 0, hidden: 0, meta: 0 };
  for (const tool of sift.catalog.list()) {
    const decision = sift.explain(tool.name);
    const state = !decision.visible ? "hidden" : loaded.has(tool.name) ? "loaded" : "deferred";
    const why =
      state === "hidden"
        ? decision.reason
        : `${decision.reason} ${loadReason(tool, state, plan.active)}`;
    let index = reasonIndex.get(why);
    if (index === undefined) {
      index = reasons.push(why) - 1;
      reasonIndex.set(why, index);
    }
    counts[state]++;
    const entry: CatalogTool = {
      name: tool.name,
      tokens: tokens.get(tool.name) ?? 0,
      state,
      reason: index,
      ...decidingRule(decision),
    };
    const key = tool.server ?? "(none)";
    const row = servers.get(key) ?? { server: key, tokens: 0, visibleTokens: 0, tools: [] };
    row.tokens += entry.tokens;
    if (state !== "hidden") row.visibleTokens += entry.tokens;
    row.tools.push(entry);
    servers.set(key, row);
  }
  counts.meta = plan.metaTools.length;
  return {
    profile: sift.policy.profile,
    profiles,
    total: sift.catalog.size,
    counts,
    servers: [...servers.values()].sort((a, b) => b.tokens - a.tokens),
    reasons,
    disclosure: {
      active: plan.active,
      reason: plan.reason,
      words: disclosureInWords(plan.reason),
    },
  };
}

/** The playground's view of one query: the ranked hits with their summaries, and the model's. */
async function buildSearchView(
  sift: ToolSift,
  query: string,
  requestedLimit: number | undefined,
  nextSession: () => string,
): Promise<SearchView> {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.trunc(requestedLimit ?? 5)));
  if (query.trim() === "") {
    throw new ToolsiftError(
      "invalid_query",
      "The query is empty; type words, select:a,b or /regex/.",
    );
  }
  // hybrid when the inspector was given an embedder (lexical otherwise, as search)
  const result = await sift.searchAsync(query, { limit, explain: true });
  const hits = result.hits.map(({ tool, ...rest }) => ({
    ...rest,
    ...(tool.server ? { server: tool.server } : {}),
    description: tool.description,
    // the summary the model's search lines and the CLI show
    summary: firstSentence(tool.description, 300),
    signature: compactSignature(tool),
  }));
  const model = await searchAsModel(sift, query, limit, nextSession());
  return { profile: sift.policy.profile, result: { ...result, hits }, model };
}

/** The cost view: each provider format's tokens for all tools, the first turn and after reveals.
 * `fixed` caches the first two per profile and format (they do not depend on the reveal). */
async function buildCostView(
  sift: ToolSift,
  revealQuery: string | undefined,
  session: string,
  fixed: Map<string, { all: number; firstTurn: number }>,
): Promise<CostView> {
  const reveal = revealQuery?.trim() ?? "";
  const revealed = reveal ? (await searchAsModel(sift, reveal, 5, session)).revealed : [];
  // the figures `toolsift report` and the demo print, from the same function
  const turn = (provider: ProviderId, id: string) =>
    countDefinitionTokens(sift, { session: id, provider, search: "client" });
  const formats = FORMATS.map(({ name, provider }) => {
    const key = `${sift.policy.profile}\u0000${provider}`;
    let known = fixed.get(key);
    if (!known) {
      const fresh = turn(provider, `${session}-fresh`);
      known = { all: fresh.all, firstTurn: fresh.turn };
      fixed.set(key, known);
    }
    return { name, provider, ...known, afterReveals: turn(provider, session).turn };
  });
  const visible = sift.prepare({ session }).stats.visible;
  return { profile: sift.policy.profile, visible, reveal, revealed, formats };
}

/** Gives a facade's index the learning's words when they changed since it last got them, so the
 * playground shows (and ranks with) what the gateway learned. */
function applyLearned(sift: ToolSift, learning: UsageLearning, applied: Map<ToolSift, number>) {
  const version = learning.evidence.version;
  if (applied.get(sift) === version) return;
  applied.set(sift, version);
  sift.index.setLearned(learning.evidence.learnedWords((name) => sift.catalog.get(name)));
}

/** Builds the model; one facade per profile, made on first use. `profile` is the one the page
 * opens with (a gateway's config profile); default the policy's default. */
export function createInspectorModel(
  tools: readonly ToolDefinition[],
  options: {
    profile?: string;
    search?: SearchOptionsOfToolSift;
    onWarning?: (message: string) => void;
    /** A gateway's learning: the playground ranks with its learned words, as the gateway does. */
    learning?: UsageLearning | undefined;
  } = {},
): InspectorModel {
  const sifts = new Map<string, ToolSift>();
  const shared = {
    ...(options.search !== undefined ? { search: options.search } : {}),
    ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
  };
  const base = createToolSift({
    tools,
    ...shared,
    ...(options.profile !== undefined ? { policy: { profile: options.profile } } : {}),
  });
  const profiles = base.policy.profiles().map((profile) => profile.name);
  sifts.set(base.policy.profile, base);
  const tokens = new Map<string, number>();
  for (const tool of base.catalog.list()) {
    tokens.set(tool.name, base.tokenCounter.count(JSON.stringify(listed(tool))));
  }
  let sessions = 0;
  const { learning } = options;
  const learnedAt = new Map<ToolSift, number>();
  // the full list is some 3 MB of JSON on a large catalog: count it once per profile and format
  const fixed = new Map<string, { all: number; firstTurn: number }>();
  const catalogs = new Map<string, CatalogView>();

  function siftFor(profile: string | undefined): ToolSift {
    const name = profile || base.policy.profile;
    const known = sifts.get(name);
    if (known) return known;
    if (!profiles.includes(name)) {
      throw new ToolsiftError(
        "invalid_option",
        `Unknown profile "${name}"; choose one of: ${profiles.join(", ")}.`,
      );
    }
    const sift = createToolSift({
      catalog: base.catalog,
      policy: { profile: name },
      ...shared,
    });
    sifts.set(name, sift);
    return sift;
  }

  return {
    profiles,
    catalog(profile) {
      const sift = siftFor(profile);
      const cached = catalogs.get(sift.policy.profile);
      if (cached) return cached;
      const view = buildCatalogView(sift, profiles, tokens);
      catalogs.set(view.profile, view);
      return view;
    },
    async search(query, options = {}) {
      const sift = siftFor(options.profile);
      if (learning) applyLearned(sift, learning, learnedAt);
      return buildSearchView(sift, query, options.limit, () => `inspector-search-${++sessions}`);
    },
    async cost(options = {}) {
      return buildCostView(
        siftFor(options.profile),
        options.reveal,
        `inspector-cost-${++sessions}`,
        fixed,
      );
    },
  };
}
