/**
 * The text views of a plan basis that reveals never change: the server directory, the listing of
 * deferrable tools the search tool's description carries, and one-line summaries. Each is built
 * once per basis and settings and cached beside the basis, so a turn only assembles them.
 */
import type { ToolDefinition } from "../../catalog/index.js";
import { LRUCache } from "../../internal/index.js";
import { firstSentence, safeName } from "../../text/index.js";
import type { ListingOptions } from "../types.js";
import { buildDirectory, type Directory } from "./build-directory.js";
import { buildListing, type Listing, type ListingEntry } from "./build-listing.js";
import type { PlanBasis, PlanCounters } from "./plan-basis.js";
import type { ResolvedSettings } from "./resolved-settings.js";

const SUMMARY_CHARS = 60;

function listingBudget(options: ListingOptions, window: number | undefined): number {
  if (options.maxTokens !== undefined) return options.maxTokens;
  return window === undefined ? 4_000 : Math.min(4_000, Math.floor(window * 0.05));
}

// per basis, one listing and one directory per (options, context window); bounded because a host
// may pass a different window on every turn
const LISTINGS_PER_BASIS = 16;
const listings = new WeakMap<PlanBasis, LRUCache<string, Listing>>();
const directories = new WeakMap<PlanBasis, LRUCache<string, Directory>>();

/** The server directory of a basis (deferrable tools only), built once per basis and settings. */
export function directoryOf(
  basis: PlanBasis,
  settings: ResolvedSettings,
  counters: PlanCounters,
): Directory | undefined {
  const options = settings.directory;
  if (!options) return undefined;
  let perBasis = directories.get(basis);
  if (!perBasis) {
    perBasis = new LRUCache(LISTINGS_PER_BASIS);
    directories.set(basis, perBasis);
  }
  const window = settings.contextWindow;
  const maxTokens = options.maxTokens ?? (window === undefined ? 1_000 : Math.floor(window * 0.01));
  const searchName = settings.nativeSearch ? undefined : settings.names.search;
  const key = JSON.stringify([maxTokens, options.words, searchName]);
  let directory = perBasis.get(key);
  if (!directory) {
    directory = buildDirectory(basis.deferrable, maxTokens, counters.count, {
      ...(options.words !== undefined ? { words: options.words } : {}),
      ...(searchName !== undefined ? { searchName } : {}),
    });
    perBasis.set(key, directory);
  }
  return directory;
}
const summaries = new WeakMap<ToolDefinition, string>();

export function summaryOf(tool: ToolDefinition): string {
  let summary = summaries.get(tool);
  if (summary === undefined) {
    summary = firstSentence(tool.description, 160);
    summaries.set(tool, summary);
  }
  return summary;
}

/** The listing of a basis, built once per basis, options and window: reveals never change it. */
export function cachedListing(
  basis: PlanBasis,
  options: ListingOptions,
  window: number | undefined,
  counters: PlanCounters,
): Listing {
  let perBasis = listings.get(basis);
  if (!perBasis) {
    perBasis = new LRUCache(LISTINGS_PER_BASIS);
    listings.set(basis, perBasis);
  }
  const key = JSON.stringify([options.maxTokens, options.summaryChars, window]);
  let listing = perBasis.get(key);
  if (!listing) {
    // the listing covers every deferrable tool, not only unrevealed ones, so reveals never
    // change the search tool's description (a cache-busting edit early in the tools array)
    const summaryChars = options.summaryChars ?? SUMMARY_CHARS;
    const entries: ListingEntry[] = basis.deferrable.map((tool) => ({
      name: safeName(tool.name),
      server: tool.server === undefined ? undefined : safeName(tool.server),
      summary: firstSentence(tool.description, summaryChars),
    }));
    listing = buildListing(entries, listingBudget(options, window), counters.count);
    perBasis.set(key, listing);
  }
  return listing;
}
