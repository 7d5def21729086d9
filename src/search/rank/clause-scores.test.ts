import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { splitClauses } from "../query/split-clauses.js";
import { ToolSearchIndex } from "../tool-search-index.js";

function tool(name: string, description: string): ToolDefinition {
  return { name, description, inputSchema: { type: "object", properties: {} } };
}

// one tool serves the first part of the request well, three serve bits of it, one the second part
const TOOLS: ToolDefinition[] = [
  tool(
    "search_movies",
    "Search movies in the film archive by title, director, studio, genre and release year",
  ),
  tool("get_director_bio", "Get the biography of a film director"),
  tool("list_director_awards", "List the awards of a film director"),
  tool("get_release_calendar", "Get the release calendar of a film archive by year"),
  tool("list_studio_genres", "List the genres a film studio releases"),
  tool("notify_contact", "Send a message to a contact"),
  tool("read_inbox", "Read the messages of the inbox"),
  tool("get_weather", "Get the weather forecast for a city"),
  tool("create_event", "Create a calendar event"),
  tool("list_files", "List files in a folder"),
  tool("convert_currency", "Convert an amount between two currencies"),
];

function indexWith(clauseWeight?: number): ToolSearchIndex {
  const index = new ToolSearchIndex(
    clauseWeight === undefined ? {} : { ranking: { clauseWeight } },
  );
  index.addAll(TOOLS);
  return index;
}

const REQUEST =
  "Find the movie Titanic by its title, director, studio, genre and release year in the film archive. Then send a message to my friend Anna.";

describe("clause fusion", () => {
  it("gives the second clause's tool a place in the top k", () => {
    // scored whole, the tools matching more of the longer first part come first
    const whole = indexWith(0).rank(REQUEST, 3);
    expect(whole).not.toContain("notify_contact");
    const fused = indexWith().rank(REQUEST, 3);
    expect(fused).toContain("notify_contact");
    // the first hit is the whole request's: a clause places its tool below it
    expect(fused[0]).toBe(whole[0]);
  });

  it("explains a clause-placed hit with score parts that add up", () => {
    const hit = indexWith()
      .search(REQUEST, { limit: 3, explain: true, cut: false })
      .hits.find((candidate) => candidate.name === "notify_contact");
    expect(hit?.scoreParts?.clause).toBeGreaterThan(0);
    expect(hit?.score).toBeCloseTo(hit?.scoreParts?.clause ?? 0, 3);
  });

  it("leaves queries without clauses exactly as they were", () => {
    const queries = [
      "movie title",
      "send message",
      "find the movie titanic by title and release year and send a message to anna",
      "send a message.",
    ];
    for (const query of queries) {
      const plain = indexWith(0).search(query, { limit: 7, cut: false, explain: true }).hits;
      const fused = indexWith().search(query, { limit: 7, cut: false, explain: true }).hits;
      expect(fused).toEqual(plain);
    }
  });
});

describe("splitClauses", () => {
  const clausesOf = (text: string) => splitClauses(text.split(" "), 3)?.clause;

  it("splits at sentence ends and step words", () => {
    expect(clausesOf("find movie titanic release year. convert dollars euros rate")).toEqual([
      0, 0, 0, 0, 0, 1, 1, 1, 1,
    ]);
    expect(clausesOf("find movie titanic release then convert dollars euros")).toEqual([
      0, 0, 0, 0, 1, 1, 1, 1,
    ]);
    expect(clausesOf("find movie titanic release after that convert dollars euros")).toEqual([
      0, 0, 0, 0, 1, 1, 1, 1, 1,
    ]);
  });

  it("keeps abbreviations, values and short parts inside a clause", () => {
    expect(clausesOf("ask Mr. Smith about release dates of movies")).toBeUndefined();
    expect(clausesOf("read /tmp/notes.txt. now convert dollars euros")).toBeUndefined();
    // "Thanks." has one content word: it joins the clause before it
    expect(clausesOf("find movie titanic release. convert dollars euros rate. Thanks.")).toEqual([
      0, 0, 0, 0, 1, 1, 1, 1, 1,
    ]);
    expect(clausesOf("convert dollars euros")).toBeUndefined();
  });
});
