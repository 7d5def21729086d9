import { describe, expect, it } from "vitest";
import { lazyTools } from "../../../test/lazy-tools.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { checksum, SnapshotReader, SnapshotWriter } from "../store/snapshot-format.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { CompanionFacts, FACTS_SECTION } from "./companion-facts.js";

function tool(
  name: string,
  description: string,
  required: string[] = [],
  server = "movies",
): ToolDefinition {
  const properties = Object.fromEntries(
    required.map((parameter) => [parameter, { type: "string", description: `The ${parameter}` }]),
  );
  return { name, description, server, inputSchema: { type: "object", properties, required } };
}

// finders (`search_movies` for `movie_id`) and a mention (`find_cinema_code`)
const MOVIES: ToolDefinition[] = [
  tool("get_movie", "Get the details of a movie by its id", ["movie_id"]),
  tool("search_movies", "Search movies by title", ["query"]),
  tool("book_tickets", "Book tickets; the cinema code must come from find_cinema_code", ["code"]),
  tool("find_cinema_code", "Find the code of a cinema in a city", ["city"]),
  tool("rate_movie", "Rate a movie you watched", ["movie_id", "stars"]),
  tool("list_cinemas", "List the cinemas of a city", ["city"]),
  tool("send_message", "Send a message to a channel", ["channel_id"], "chat"),
  tool("list_channels", "List the channels of a workspace", [], "chat"),
];

const QUERIES = ["movie details", "book tickets", "rate a movie", "send a message", "cinema"];

function built(tools: readonly ToolDefinition[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  index.addAll(tools);
  return index;
}

function loaded(tools: readonly ToolDefinition[], snapshot: Uint8Array) {
  const warnings: string[] = [];
  const index = new ToolSearchIndex({ snapshot, onWarning: (message) => warnings.push(message) });
  index.addAll(tools);
  return { index, warnings };
}

function answers(index: ToolSearchIndex): unknown[] {
  return QUERIES.map((query) => [index.rank(query, 10), index.search(query, { limit: 5 })]);
}

/** `tools` whose description or schema records a read (`lazyTools`). */
const watched = (tools: readonly ToolDefinition[], reads: Set<string>) =>
  lazyTools(tools, reads, ["description", "inputSchema"]);

describe("companion facts", () => {
  it("are found at all: the fixture ranks a finder and a mentioned tool after their hit", () => {
    const index = built(MOVIES);
    expect(index.rank("movie details", 3).slice(0, 2)).toEqual(["get_movie", "search_movies"]);
    expect(index.rank("book tickets", 3).slice(0, 2)).toEqual(["book_tickets", "find_cinema_code"]);
  });

  it("ride in the snapshot, so a restored index ranks without reading any schema or description", () => {
    const snapshot = built(MOVIES).exportSnapshot();
    const reads = new Set<string>();
    const { index, warnings } = loaded(watched(MOVIES, reads), snapshot);
    expect(warnings).toEqual([]);
    const reference = built(MOVIES);
    for (const query of QUERIES) expect(index.rank(query, 10)).toEqual(reference.rank(query, 10));
    expect([...reads]).toEqual([]);
    // a search's hits list every hit's companions: the same, still without reading a tool
    const companions = (from: ToolSearchIndex) =>
      QUERIES.map((query) =>
        from.search(query, { limit: 5, cut: false }).hits.map((hit) => [hit.name, hit.companions]),
      );
    expect(companions(index)).toEqual(companions(reference));
    expect([...reads]).toEqual([]);
  });

  it("stay right for tools removed and added after a restore, before or after first use", () => {
    const snapshot = built(MOVIES).exportSnapshot();
    const changes = (index: ToolSearchIndex) => {
      // the freed id is reused by a tool with other needs and words
      index.remove("get_movie");
      index.add(tool("get_cinema", "Get a cinema; see list_cinemas", ["cinema_id"]));
    };
    for (const usedFirst of [false, true]) {
      const { index } = loaded(MOVIES, snapshot);
      if (usedFirst) answers(index);
      changes(index);
      const reference = built(MOVIES);
      changes(reference);
      expect(answers(index), `used first: ${usedFirst}`).toEqual(answers(reference));
      // the new tool's finder, not the one of the tool whose id it took (`search_movies`)
      expect(index.rank("get cinema", 2)).toEqual(["get_cinema", "find_cinema_code"]);
    }
  });

  it("never fill a reused id from a section still unread when its tool was removed", () => {
    const tools: (ToolDefinition | undefined)[] = [MOVIES[0], MOVIES[1]];
    const source = new CompanionFacts(tools);
    const writer = new SnapshotWriter();
    source.save(writer, [0, 1]);
    const reader = new SnapshotReader(writer.finish("fingerprint"));
    const facts = new CompanionFacts(tools);
    facts.restore(() => reader.json(FACTS_SECTION), Int32Array.from([0, 1]));
    // id 0 is freed and taken by another tool before anything was read
    facts.removed(0);
    tools[0] = tool("get_cinema", "Get a cinema; see list_cinemas", ["cinema_id"]);
    expect(facts.needsOf(0)).toEqual({ entities: ["cinema"], parameters: ["cinema_id"] });
    expect(facts.wordsOf(0)).toEqual(["list_cinemas", "cinema_id"]);
    expect(facts.needsOf(1)).toEqual({ entities: [], parameters: [] });
  });

  it("are worked out from the tools when the section is malformed behind a valid checksum", () => {
    const snapshot = built(MOVIES).exportSnapshot();
    const view = new DataView(snapshot.buffer);
    const headerLength = view.getUint32(8, true);
    const header = JSON.parse(new TextDecoder().decode(snapshot.subarray(16, 16 + headerLength)));
    const bodyStart = (16 + headerLength + 7) & ~7;
    const [, offset, count] = header.sections[FACTS_SECTION];
    const text = new TextDecoder().decode(
      snapshot.subarray(bodyStart + offset, bodyStart + offset + count),
    );
    // each edit keeps the section's length, so only its content is wrong
    const edits = {
      "not JSON": " ".repeat(text.length),
      "another shape": "1".repeat(text.length),
      "a position past the tools": text.replace(/\[\[0,/, "[[9,"),
      // `["find_cinema_code"]` becomes `[1,"nd_cinema_code"]`
      "a word that is not a string": text.replace('["find_', '[1,"nd_'),
    };
    const expected = answers(built(MOVIES));
    for (const [problem, edited] of Object.entries(edits)) {
      expect(edited, problem).not.toEqual(text);
      expect(edited.length, problem).toBe(text.length);
      const bytes = snapshot.slice();
      bytes.set(new TextEncoder().encode(edited), bodyStart + offset);
      new DataView(bytes.buffer).setUint32(12, checksum(bytes, 16), true);
      const { index, warnings } = loaded(MOVIES, bytes);
      expect(warnings, problem).toEqual([]);
      expect(answers(index), problem).toEqual(expected);
    }
  });
});

describe("rank", () => {
  it("looks up the companions of its first hit only, the only ones a flat ranking places", () => {
    // ten hits that each need a report's id, and the finder that supplies it
    const reports = Array.from({ length: 10 }, (_, at) =>
      tool(`get_report_${at}`, `Get report number ${at}`, ["report_id"], "reports"),
    );
    reports.push(tool("search_reports", "Search the reports", ["query"], "reports"));
    const reads = new Set<string>();
    const index = built(watched(reports, reads));
    reads.clear();
    const ranked = index.rank("get report", 10);
    expect(ranked[1]).toBe("search_reports");
    // the first hit and the finder's own needs (a finder needing the id cannot supply it)
    expect([...reads].sort()).toEqual([ranked[0], "search_reports"].sort());
  });
});
