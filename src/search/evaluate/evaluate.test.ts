import { describe, expect, it } from "vitest";
import { BaselineBM25 } from "./baseline-bm25.js";
import { evaluate, evaluateRanking } from "./evaluate.js";

describe("evaluate", () => {
  it("computes recall@k as the fraction of relevant tools found, averaged", () => {
    const ranker = { rank: (query: string) => (query === "q1" ? ["a", "x", "b"] : ["y", "z"]) };
    const result = evaluate(
      ranker,
      [
        { id: "1", query: "q1", relevant: ["a", "b"] },
        { id: "2", query: "q2", relevant: ["z"] },
        { id: "3", query: "q3", relevant: [] },
      ],
      { perQuery: true },
    );
    expect(result.count).toBe(2);
    expect(result.recallAt[1]).toBeCloseTo((0.5 + 0) / 2);
    expect(result.recallAt[3]).toBeCloseTo((1 + 1) / 2);
    expect(result.mrr).toBeCloseTo((1 + 0.5) / 2);
    expect(result.perQuery).toHaveLength(2);
  });

  it("gives nDCG 1 for a perfect ranking and less otherwise", () => {
    expect(evaluateRanking("p", ["a", "b"], ["a", "b"]).ndcgAt10).toBeCloseTo(1);
    expect(evaluateRanking("q", ["x", "a"], ["a"]).ndcgAt10).toBeCloseTo(1 / Math.log2(3));
  });
});

describe("BaselineBM25", () => {
  it("ranks by plain BM25 over name, description and parameter names", () => {
    const baseline = new BaselineBM25([
      { name: "get_weather", description: "Weather forecast for a city", inputSchema: {} },
      {
        name: "send_mail",
        description: "Send a message",
        inputSchema: { type: "object", properties: { recipient: {} } },
      },
    ]);
    expect(baseline.rank("weather in Paris", 5)).toEqual(["get_weather"]);
    expect(baseline.rank("recipient", 5)).toEqual(["send_mail"]);
  });
});
