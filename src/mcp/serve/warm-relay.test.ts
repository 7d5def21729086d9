import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { WARM_ROUNDS, warmRelayChecks } from "./warm-relay.js";

describe("warmRelayChecks", () => {
  it("runs every round in slices that let other work in between, once per process", async () => {
    const parse = vi.spyOn(CallToolResultSchema, "safeParse");
    const warming = warmRelayChecks(100);
    let settled = false;
    void warming.finished.then(() => {
      settled = true;
    });
    const between = await new Promise<{ settled: boolean; rounds: number }>((resolve) =>
      setImmediate(() => resolve({ settled, rounds: parse.mock.calls.length })),
    );
    // other work ran after the first slice and before the last
    expect(between.settled).toBe(false);
    expect(between.rounds).toBeGreaterThan(0);
    expect(between.rounds).toBeLessThan(100);
    expect(await warming.finished).toBe(100);
    expect(parse).toHaveBeenCalledTimes(100);
    // the checks it ran accept the sample result: the rounds warm the path a success takes
    expect(parse.mock.results.every((result) => result.value.success)).toBe(true);
    // a second gateway in the same process runs none
    expect(await warmRelayChecks().finished).toBe(0);
    expect(parse).toHaveBeenCalledTimes(100);
    expect(WARM_ROUNDS).toBeGreaterThan(100);
  });
});
