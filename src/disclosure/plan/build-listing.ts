import { safeName } from "../../text/index.js";
import type { CountTokens, DeferredShown } from "../types.js";

/** One deferred tool as the listing needs it (already sanitised). */
export interface ListingEntry {
  name: string;
  server: string | undefined;
  summary: string;
}

/** A built listing: its text, the tier reached and how each tool ended up shown. */
export interface Listing {
  text: string;
  tokens: number;
  tier: "none" | "summaries" | "names" | "servers";
  shown: Map<string, DeferredShown>;
}

const NO_SERVER = "other";

interface Group {
  server: string;
  entries: ListingEntry[];
}

function groupByServer(entries: readonly ListingEntry[]): Group[] {
  const groups = new Map<string, ListingEntry[]>();
  for (const entry of entries) {
    const key = entry.server ?? NO_SERVER;
    let list = groups.get(key);
    if (!list) {
      list = [];
      groups.set(key, list);
    }
    list.push(entry);
  }
  return [...groups.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((server) => ({ server, entries: groups.get(server) ?? [] }));
}

const HEADER = /^Deferred tools \(\d+\):$/;

function summaryBlock(group: Group): string {
  const lines = group.entries.map((e) => (e.summary ? `- ${e.name}: ${e.summary}` : `- ${e.name}`));
  return `${group.server} (${group.entries.length}):\n${lines.join("\n")}`;
}

function namesLine(group: Group): string {
  return `${group.server} (${group.entries.length}): ${group.entries.map((e) => e.name).join(", ")}`;
}

function serverLine(group: Group): string {
  return `${group.server}: ${group.entries.length} tools (names not listed; search for them)`;
}

/**
 * Builds the budgeted directory of deferred tools, grouped by server in name order.
 *
 * Degrades as the catalog grows: `name: first sentence` lines, then names only, then one line
 * per server (largest servers collapse first), then the first servers plus a count of the rest.
 * Entries must be sorted by name and sanitised; the same entries give the same text.
 */
export function buildListing(
  entries: readonly ListingEntry[],
  maxTokens: number,
  count: CountTokens,
): Listing {
  const shown = new Map<string, DeferredShown>();
  if (entries.length === 0) return { text: "", tokens: 0, tier: "none", shown };
  const groups = groupByServer(entries);
  const header = `Deferred tools (${entries.length}):`; // the form HEADER reads back
  const fits = (text: string) => count(text) <= maxTokens;
  const mark = (list: readonly Group[], how: (group: Group) => DeferredShown) => {
    for (const group of list) for (const entry of group.entries) shown.set(entry.name, how(group));
  };

  const summaries = [header, ...groups.map(summaryBlock)].join("\n");
  if (fits(summaries)) {
    mark(groups, () => "listed");
    return { text: summaries, tokens: count(summaries), tier: "summaries", shown };
  }
  const names = [header, ...groups.map(namesLine)].join("\n");
  if (fits(names)) {
    mark(groups, () => "named");
    return { text: names, tokens: count(names), tier: "names", shown };
  }
  // collapse the largest servers first (ties by server name) until the listing fits
  const order = [...groups].sort(
    (a, b) => b.entries.length - a.entries.length || (a.server < b.server ? -1 : 1),
  );
  const collapsed = new Set<Group>();
  for (const group of order) {
    collapsed.add(group);
    const text = [
      header,
      ...groups.map((g) => (collapsed.has(g) ? serverLine(g) : namesLine(g))),
    ].join("\n");
    if (fits(text)) {
      mark(groups, (g) => (collapsed.has(g) ? "server" : "named"));
      return { text, tokens: count(text), tier: "servers", shown };
    }
  }
  // even one line per server is too long: keep the first servers and count the rest
  const restLine = (rest: readonly Group[]) => {
    const tools = rest.reduce((sum, g) => sum + g.entries.length, 0);
    return `…and ${rest.length} more servers (${tools} tools); search for them`;
  };
  const lines = [header];
  let kept = 0;
  while (kept < groups.length) {
    const next = groups[kept] as Group;
    const rest = groups.slice(kept + 1);
    const candidate = [...lines, serverLine(next), ...(rest.length > 0 ? [restLine(rest)] : [])];
    if (!fits(candidate.join("\n"))) break;
    lines.push(serverLine(next));
    kept += 1;
  }
  mark(groups.slice(0, kept), () => "server");
  const hidden = groups.slice(kept);
  if (hidden.length > 0) {
    lines.push(restLine(hidden));
    mark(hidden, () => "search");
  }
  const text = lines.join("\n");
  return { text, tokens: count(text), tier: "servers", shown };
}

/**
 * The text with each tool name of its listing (the part from the `Deferred tools (N):` line on)
 * replaced by the name the model calls it by: `names` maps a catalog name to that name (a
 * provider's function name), names missing from it stay. Only the listing's name positions are
 * read (`- NAME: summary` lines and the `server (N): NAME, NAME` lines), never the summaries or
 * the listing's own words, so a tool named `search` cannot turn "search for them" into a name.
 * Names in the text are sanitised (no spaces), which is what makes the positions unambiguous.
 */
export function renameListing(text: string, names: ReadonlyMap<string, string>): string {
  const shown = new Map<string, string>();
  for (const [name, sent] of names) if (name !== sent) shown.set(safeName(name), sent);
  if (shown.size === 0) return text;
  const rename = (name: string) => shown.get(name) ?? name;
  let inListing = false;
  const lines = text.split("\n").map((line) => {
    if (!inListing) {
      inListing = HEADER.test(line);
      return line;
    }
    if (line.startsWith("- ")) {
      const end = line.indexOf(": ");
      const name = end === -1 ? line.slice(2) : line.slice(2, end);
      return `- ${rename(name)}${end === -1 ? "" : line.slice(end)}`;
    }
    const namesLine = /^(\S+ \(\d+\)): (.+)$/.exec(line);
    if (!namesLine) return line;
    return `${namesLine[1]}: ${(namesLine[2] ?? "").split(", ").map(rename).join(", ")}`;
  });
  return lines.join("\n");
}
