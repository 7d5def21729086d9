import { describe, expect, it } from "vitest";
import type { UpstreamStatus } from "../types.js";
import { readinessProblems } from "./probes.js";

const upstreams = (...states: UpstreamStatus["state"][]) => ({
  sift: {
    upstreams: {
      status: () =>
        states.map((state, index) => ({ server: `s${index}`, state, tools: 0, restarts: 0 })),
    },
  } as never,
});

describe("readiness", () => {
  it("is not ready while every server is still on its first start (a search would find nothing)", async () => {
    expect(await readinessProblems(upstreams("starting", "starting"))).toEqual([
      "no upstream is up: s0 (starting), s1 (starting)",
    ]);
    expect(await readinessProblems(upstreams("down", "needs_login"))).toHaveLength(1);
  });

  it("is ready once one server is up, lazy with a known catalog or restarting with its tools kept", async () => {
    for (const state of ["ready", "idle", "restarting"] as const) {
      expect(await readinessProblems(upstreams("starting", state)), state).toEqual([]);
    }
    expect(await readinessProblems(upstreams())).toEqual([]);
  });

  it("names a store that does not answer", async () => {
    const store = { ping: async () => Promise.reject(new Error("Redis at 127.0.0.1:1 refused")) };
    expect(await readinessProblems({ ...upstreams("ready"), state: { store } })).toEqual([
      "Redis at 127.0.0.1:1 refused",
    ]);
  });
});
