/** The server directory of the first turn: one short line per server, so the model can see what
 * exists before it searches (models skip searching for what they cannot imagine is there). */
import type { ToolDefinition } from "../../catalog/index.js";
import {
  capText,
  firstSentence,
  STOP_WORDS,
  safeName,
  splitIdentifier,
  stem,
} from "../../text/index.js";
import type { CountTokens } from "../types.js";

/** A built directory: its text, tokens and how much of it fitted. */
export interface Directory {
  text: string;
  tokens: number;
  /** `words`: name, count and words per server; `names`: names and counts only; `none`: empty. */
  tier: "none" | "words" | "names";
}

const NO_SERVER = "(no server)";
// verbs and nouns every tool API uses: they say what a tool does, never what a server is about
const GENERIC = new Set(
  "get list create update delete remove add set fetch read write run search find show return returns use using new all specific given tool tools server mcp api data info information details id ids name names value values item items type based current multiple optional default take make check manage perform provide allow retrieve".split(
    " ",
  ),
);

function termsOf(text: string): string[] {
  return splitIdentifier(text).filter(
    (word) => word.length >= 3 && !/\d/.test(word) && !STOP_WORDS.has(word) && !GENERIC.has(word),
  );
}

/** The most distinctive words of each server: frequent among its tools (names count double),
 * rare among the other servers. Ties break by word, so the same tools give the same words. */
function describeServers(groups: Map<string, ToolDefinition[]>, perServer: number) {
  const counts = new Map<string, Map<string, { score: number; surface: Map<string, number> }>>();
  const serversWith = new Map<string, number>();
  for (const [server, tools] of groups) {
    // words of the server's own name say nothing new ("hub" of GitHub in github-mcp-server)
    const joined = server.toLowerCase().replace(/[^a-z]/g, "");
    const terms = new Map<string, { score: number; surface: Map<string, number> }>();
    for (const tool of tools) {
      const seen = new Map<string, number>();
      for (const word of termsOf(tool.name)) seen.set(word, 2);
      for (const word of termsOf(firstSentence(tool.description, 200))) {
        if (!seen.has(word)) seen.set(word, 1);
      }
      for (const [word, weight] of seen) {
        if (joined.includes(word)) continue;
        const key = stem(word);
        const entry = terms.get(key) ?? { score: 0, surface: new Map<string, number>() };
        entry.score += weight;
        entry.surface.set(word, (entry.surface.get(word) ?? 0) + 1);
        terms.set(key, entry);
      }
    }
    for (const key of terms.keys()) serversWith.set(key, (serversWith.get(key) ?? 0) + 1);
    counts.set(server, terms);
  }
  const words = new Map<string, string[]>();
  for (const [server, terms] of counts) {
    const size = groups.get(server)?.length ?? 1;
    const ranked = [...terms.entries()]
      .map(([key, entry]) => ({
        key,
        entry,
        score: (entry.score / size) * Math.log(1 + groups.size / (serversWith.get(key) ?? 1)),
      }))
      .filter((item) => size < 3 || item.entry.score >= 2)
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
      .slice(0, perServer);
    words.set(
      server,
      ranked.map(({ entry }) => {
        const forms = [...entry.surface.entries()].sort(
          (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
        );
        return forms[0]?.[0] ?? "";
      }),
    );
  }
  return words;
}

/**
 * Builds the budgeted directory of the servers whose tools are deferred: one line per server
 * (name, tool count, a few describing words derived from its tools), degrading to names and
 * counts on one line, then to the first names plus a count of the rest. Servers in name order;
 * equal tools give equal text.
 */
export function buildDirectory(
  tools: readonly ToolDefinition[],
  maxTokens: number,
  count: CountTokens,
  options: { words?: number; searchName?: string } = {},
): Directory {
  if (tools.length === 0) return { text: "", tokens: 0, tier: "none" };
  const groups = new Map<string, ToolDefinition[]>();
  for (const tool of tools) {
    const key = tool.server === undefined ? NO_SERVER : capText(safeName(tool.server), 60);
    const group = groups.get(key);
    if (group) group.push(tool);
    else groups.set(key, [tool]);
  }
  const servers = [...groups.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const how = options.searchName ? `; find their tools with ${options.searchName}` : "";
  const header = `Tool servers (${servers.length})${how}:`;
  const fits = (text: string) => count(text) <= maxTokens;
  const described = describeServers(groups, options.words ?? 4);
  const lines = servers.map((server) => {
    const words = described.get(server) ?? [];
    const size = groups.get(server)?.length ?? 0;
    return `- ${server} (${size} tool${size === 1 ? "" : "s"})${words.length > 0 ? `: ${words.join(", ")}` : ""}`;
  });
  const full = [header, ...lines].join("\n");
  const fullTokens = count(full);
  if (fullTokens <= maxTokens) return { text: full, tokens: fullTokens, tier: "words" };
  const named = servers.map((server) => `${server} (${groups.get(server)?.length ?? 0})`);
  const textOf = (kept: number) => {
    const rest = named.length - kept;
    return `${header} ${named.slice(0, kept).join(", ")}${rest > 0 ? ` …and ${rest} more` : ""}`;
  };
  // the most names that fit, by bisection: counting every prefix from the longest down was
  // quadratic in the servers (seconds at 2,500 servers). Tokens grow with the names kept, up to
  // a token of BPE noise, so the found prefix is re-counted and stepped down until it fits.
  let low = 0;
  let high = named.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(textOf(middle))) low = middle;
    else high = middle - 1;
  }
  for (let kept = low; kept > 0; kept -= 1) {
    const text = textOf(kept);
    const tokens = count(text);
    if (tokens <= maxTokens) return { text, tokens, tier: "names" };
  }
  return { text: "", tokens: 0, tier: "none" };
}
