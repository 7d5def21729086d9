import { describe, expect, it } from "vitest";
import type { UpstreamServer } from "../upstream/upstream-server.js";
import { PROBE_CONCURRENCY, probeResource } from "./probe-resource.js";

/** A server whose `resources/read` waits until released, then has the URI or not. */
function fakeServer(name: string, has: boolean, state: { inFlight: number; most: number }) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = {
    name,
    aborted: false,
    async request(_request: unknown, _schema: unknown, options: { signal?: AbortSignal }) {
      state.inFlight += 1;
      state.most = Math.max(state.most, state.inFlight);
      try {
        await new Promise<void>((resolve, reject) => {
          released.then(resolve);
          options.signal?.addEventListener("abort", () => {
            server.aborted = true;
            reject(new Error("aborted"));
          });
        });
        if (!has) throw new Error(`MCP error -32602: Unknown resource at ${name}`);
        return { contents: [{ uri: "x://y", text: name }] };
      } finally {
        state.inFlight -= 1;
      }
    },
  };
  return { server, release };
}

describe("probeResource", () => {
  it("asks a few servers at a time, takes the first that has the URI and cancels the rest", async () => {
    const state = { inFlight: 0, most: 0 };
    const fakes = Array.from({ length: 6 }, (_, index) =>
      fakeServer(`s${index}`, index === 1, state),
    );
    const pending = probeResource(
      "x://y",
      fakes.map((fake) => fake.server as unknown as UpstreamServer),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.most).toBe(PROBE_CONCURRENCY);
    fakes[0]?.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    fakes[1]?.release();
    const found = await pending;
    expect(found.server.name).toBe("s1");
    expect(found.result).toEqual({ contents: [{ uri: "x://y", text: "s1" }] });
    expect(fakes[2]?.server.aborted).toBe(true);
    // s5 was never asked: s1 answered before a worker got to it
    expect(state.most).toBe(PROBE_CONCURRENCY);
  });

  it("names the URI and each server asked with its answer when none has it", async () => {
    const state = { inFlight: 0, most: 0 };
    const fakes = ["a", "b"].map((name) => fakeServer(name, false, state));
    for (const fake of fakes) fake.release();
    const error = await probeResource(
      "x://none",
      fakes.map((fake) => fake.server as unknown as UpstreamServer),
    ).catch((caught: Error & { code?: number }) => caught);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toBe(
      'No upstream server has the resource "x://none"; asked a (Unknown resource at a), b (Unknown resource at b). List resources (or templates) to see the URIs they offer.',
    );
  });
});
