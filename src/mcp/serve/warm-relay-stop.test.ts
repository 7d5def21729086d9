import { describe, expect, it } from "vitest";
import { warmRelayChecks } from "./warm-relay.js";

describe("warmRelayChecks stopped", () => {
  it("stops between slices, with the rounds run so far", async () => {
    const warming = warmRelayChecks(10_000);
    await new Promise((resolve) => setImmediate(resolve));
    warming.stop();
    const rounds = await warming.finished;
    expect(rounds).toBeGreaterThan(0);
    expect(rounds).toBeLessThan(10_000);
  });
});
