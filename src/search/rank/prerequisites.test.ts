import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { requiredEntities } from "./prerequisites.js";

function tool(
  name: string,
  description: string,
  server: string,
  required: string[] = [],
): ToolDefinition {
  const properties = Object.fromEntries(required.map((key) => [key, { type: "string" }]));
  return { name, description, server, inputSchema: { type: "object", properties, required } };
}

// a film database: lookups by id need the film's id, which the search tool supplies
const FILMS = [
  tool("search_movie", "Search for films by their title", "films"),
  tool("list_movie_genres", "List the official genres of films", "films"),
  tool("movie_credits", "Get the cast and crew credits of a film", "films", ["movie_id"]),
  tool("movie_reviews", "Get the user reviews of a film", "films", ["movieId"]),
  tool("person_details", "Get the biography of a person", "films", ["person_id"]),
];
const OTHER = [
  tool("search_movie_clips", "Search video clips of films", "clips"),
  tool("crew_schedule", "Plan the shifts of a crew and its cast list", "rota"),
];

function indexOf(tools: ToolDefinition[], ranking?: { finderCompanions: boolean }) {
  const index = new ToolSearchIndex(ranking ? { ranking } : undefined);
  for (const item of tools) index.add(item);
  return index;
}

describe("requiredEntities", () => {
  it("reads the entity from required id parameters in any naming style", () => {
    expect(requiredEntities(tool("a", "", "s", ["movie_id", "playlistId", "track_ids"]))).toEqual([
      "movi",
      "playlist",
      "track",
    ]);
  });

  it("gives a bare id the any-entity marker and ignores other parameters", () => {
    expect(requiredEntities(tool("a", "", "s", ["id", "name", "valid"]))).toEqual([""]);
    expect(requiredEntities(tool("a", "", "s", ["query"]))).toEqual([]);
  });

  it("tolerates a schema without a usable required list", () => {
    const odd = { name: "a", description: "", inputSchema: { type: "object", required: "x" } };
    expect(requiredEntities(odd as unknown as ToolDefinition)).toEqual([]);
  });
});

describe("finder companions in search", () => {
  it("attaches the finder to its hit and places it right after the hit in a flat ranking", () => {
    const index = indexOf([...FILMS, ...OTHER]);
    const names = index.rank("who played in the cast and crew credits", 3);
    // 1: the tool asked for; 2: the finder of the film id movie_credits needs, chosen by the
    // better verb (search over list), though it matches no word; 3: crew_schedule on its own words
    expect(names).toEqual(["movie_credits", "search_movie", "crew_schedule"]);
    const hit = index.search("who played in the cast and crew credits").hits[0];
    expect(hit?.companions).toEqual([
      { name: "search_movie", reason: "needs movie_id", via: "finder" },
    ]);
    // search lists it on the hit, not as a hit of its own
    expect(index.search("cast and crew credits").hits.map((h) => h.name)).not.toContain(
      "search_movie",
    );
  });

  it("never places a finder before the best direct match", () => {
    const index = indexOf([...FILMS, ...OTHER]);
    // the finder serves three of the top hits: its summed pull used to put it first
    const names = index.rank("film cast credits reviews biography", 5);
    expect(names[0]).not.toBe("search_movie");
  });

  it("takes finders only from the same server", () => {
    const index = indexOf([...FILMS.filter((item) => item.name !== "search_movie"), ...OTHER]);
    const names = index.rank("cast and crew credits", 3);
    expect(names).toContain("list_movie_genres");
    expect(names).not.toContain("search_movie_clips");
  });

  it("respects the caller's filter, excluded words and required words", () => {
    const index = indexOf(FILMS);
    const query = "cast and crew credits of the film";
    const filtered = index.search(query, { filter: (item) => item.name !== "search_movie" });
    expect(filtered.hits.map((hit) => hit.name)).not.toContain("search_movie");
    expect(index.rank(`${query} -search`, 5)).not.toContain("search_movie");
    expect(index.rank(`${query} -search`, 5)).not.toContain("search_movie");
  });

  it("follows the catalog: a finder added or removed after the first query counts", () => {
    const index = indexOf(FILMS.filter((item) => item.name !== "search_movie"));
    expect(index.rank("cast and crew credits", 3)).not.toContain("search_movie");
    index.add(FILMS[0] as ToolDefinition);
    expect(index.rank("cast and crew credits", 3)).toContain("search_movie");
    index.remove("search_movie");
    expect(index.rank("cast and crew credits", 3)).not.toContain("search_movie");
  });

  it("is off when finderCompanions is false", () => {
    const index = indexOf(FILMS, { finderCompanions: false });
    expect(index.rank("cast and crew credits", 5)).not.toContain("search_movie");
  });

  it("does not depend on the order tools were added in", () => {
    const tools = [...FILMS, ...OTHER];
    const expected = indexOf(tools).rank("film cast credits reviews", 6);
    fc.assert(
      fc.property(fc.shuffledSubarray(tools, { minLength: tools.length }), (order) => {
        expect(indexOf(order).rank("film cast credits reviews", 6)).toEqual(expected);
      }),
      { numRuns: 30 },
    );
  });
});
