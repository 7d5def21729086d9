import { describe, expect, it } from "vitest";
import type { ClientRelay } from "./relay-tracker.js";
import { createRelayTracker } from "./relay-tracker.js";

const relayOf = (session: object): ClientRelay => Object.assign(async () => ({}), { session });

describe("createRelayTracker", () => {
  it("routes to the only session in flight, declines with several, and then takes turns", async () => {
    const alice = relayOf({});
    const bob = relayOf({});
    const tracker = createRelayTracker(() => []);
    let finishAlice: () => void = () => undefined;
    const aliceCall = tracker.during(alice, () => new Promise<void>((r) => (finishAlice = r)));
    expect(tracker.target("sampling/createMessage")).toEqual({ kind: "session", relay: alice });
    let bobRan = false;
    const bobCall = tracker.during(bob, async () => {
      bobRan = true;
    });
    // turns are on since alice's request: bob waits for alice's call
    await Promise.resolve();
    expect(tracker.takingTurns()).toBe(true);
    expect(bobRan).toBe(false);
    finishAlice();
    await Promise.all([aliceCall, bobCall]);
    expect(bobRan).toBe(true);
  });

  it("says a request is ambiguous while calls of two sessions run together", async () => {
    const tracker = createRelayTracker(() => []);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const calls = [tracker.during(relayOf({}), () => gate), tracker.during(undefined, () => gate)];
    expect(tracker.target("sampling/createMessage")).toMatchObject({ kind: "ambiguous" });
    release();
    await Promise.all(calls);
  });

  it("outside calls: roots go to the one connected session, else none or ambiguous", () => {
    const one = relayOf({});
    const roots = "roots/list";
    expect(createRelayTracker(() => [one]).target(roots)).toEqual({ kind: "session", relay: one });
    expect(createRelayTracker(() => []).target(roots)).toEqual({ kind: "none" });
    expect(createRelayTracker(() => [one, relayOf({})]).target(roots)).toMatchObject({
      kind: "ambiguous",
    });
  });

  it("outside calls: sampling and elicitation are unasked, even with one session connected", () => {
    const one = relayOf({});
    for (const method of ["sampling/createMessage", "elicitation/create"]) {
      for (const connected of [[one], []]) {
        const target = createRelayTracker(() => connected).target(method);
        expect(target).toMatchObject({ kind: "unasked" });
        expect(target).toHaveProperty("reason", expect.stringContaining(method));
      }
    }
  });

  it("lets a waiting call go when its signal aborts", async () => {
    const tracker = createRelayTracker(() => []);
    let release: () => void = () => undefined;
    const first = tracker.during(relayOf({}), () => new Promise<void>((r) => (release = r)));
    tracker.target("sampling/createMessage"); // a request during a call: turns on
    const abort = new AbortController();
    const waiting = tracker.during(relayOf({}), async () => "ran", abort.signal);
    abort.abort(new Error("cancelled by the client"));
    await expect(waiting).rejects.toThrow("cancelled by the client");
    release();
    await first;
  });
});
