import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { MentionIndex, nameShapedWords } from "./mentions.js";

function tool(name: string, description: string, server = "rail", extra = {}): ToolDefinition {
  return { name, description, server, inputSchema: { type: "object", ...extra } };
}

describe("nameShapedWords", () => {
  it("finds snake, kebab, dotted and camelCase words in the description and parameters", () => {
    const words = nameShapedWords(
      tool("get_tickets", "Call `get-station-code` first; see list_pages or fs.readFile.", "rail", {
        properties: { from: { description: "A code from getStationCode." }, bad: null, n: 5 },
      }),
    );
    expect(words).toEqual(["get-station-code", "list_pages", "fs.readFile", "getStationCode"]);
  });

  it("keeps the first 32 distinct words of a huge description, in linear time", () => {
    const description = Array.from({ length: 200_000 }, (_, n) => `tool_${n}`).join(" ");
    const words = nameShapedWords(tool("big", description));
    expect(words).toHaveLength(32);
    expect(words[31]).toBe("tool_31");
  });

  it("reads namespaced names whole and scans a long unbroken run in linear time", () => {
    const text = `Use mcp__github__create_issue or server/tool:name. ${"a".repeat(300_000)} x_y`;
    expect(nameShapedWords(tool("t", text))).toEqual([
      "mcp__github__create_issue",
      "server/tool:name",
      "x_y",
    ]);
    // (a backtracking pattern over the unbroken run would not finish within the test timeout)
  });

  it("ignores plain words, so a one-word tool name is never matched by accident", () => {
    expect(nameShapedWords(tool("calc", "Search the web and calculate totals."))).toEqual([]);
  });
});

describe("MentionIndex", () => {
  it("resolves names to tools of the same server, including tools added after the first lookup", () => {
    const tools: (ToolDefinition | undefined)[] = [
      tool("get_tickets", "Station codes come from get_station_code or other__tool."),
      tool("other__tool", "Another server's tool with a mentioned name.", "elsewhere"),
    ];
    const ids = new Map<string, number>([
      ["get_tickets", 0],
      ["other__tool", 1],
    ]);
    const wordsOf = (id: number) => {
      const named = tools[id];
      return named === undefined ? [] : nameShapedWords(named);
    };
    const index = new MentionIndex(tools, (name) => ids.get(name) ?? -1, wordsOf);
    expect(index.mentionedBy(0)).toEqual([]);
    tools[2] = tool("get_station_code", "Finds the code of a station.");
    ids.set("get_station_code", 2);
    expect(index.mentionedBy(0)).toEqual([2]);
    tools[0] = tool("plain", "Names nothing.");
    expect(index.mentionedBy(0)).toEqual([]);
  });
});

describe("search with mentioned tools", () => {
  const catalog = [
    tool("get-tickets", "Query remaining train tickets between two stations on a date.", "rail", {
      properties: {
        fromStation: { description: "Station code; must come from `get-station-code-by-city`." },
      },
      required: ["fromStation"],
    }),
    tool("get-station-code-by-city", "Look up the station code of a city name."),
    tool("get-weather", "Weather forecast for a city on a date.", "weather"),
    tool("get-train-route", "Stations a train stops at, with times."),
  ];

  it("places the named tool right after the tool that names it, never above it", () => {
    const index = new ToolSearchIndex();
    index.addAll(catalog);
    const ranked = index.rank("train tickets from Beijing to Shanghai tomorrow", 4);
    // 1: the tickets tool matches the request best
    expect(ranked[0]).toBe("get-tickets");
    // 2: the tool its parameter says the station code must come from
    expect(ranked[1]).toBe("get-station-code-by-city");
    const off = new ToolSearchIndex({ ranking: { mentionCompanions: false } });
    off.addAll(catalog);
    expect(off.rank("train tickets from Beijing to Shanghai tomorrow", 4)[1]).not.toBe(
      "get-station-code-by-city",
    );
  });
});
