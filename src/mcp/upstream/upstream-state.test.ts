import { describe, expect, it } from "vitest";
import {
  createUpstreamLife,
  IllegalTransitionError,
  nextState,
  TRANSITIONS,
  type UpstreamEvent,
  type UpstreamState,
} from "./upstream-state.js";

const STATES: UpstreamState[] = [
  "idle",
  "starting",
  "ready",
  "restarting",
  "down",
  "needs_login",
  "closed",
];
const EVENTS: UpstreamEvent[] = [
  "start",
  "connected",
  "failed",
  "lost",
  "restart",
  "needsLogin",
  "loggedIn",
  "close",
];

/** The table, written out once more by hand: a change to the machine must change both. */
const EXPECTED: [UpstreamState, UpstreamEvent, UpstreamState][] = [
  ["idle", "start", "starting"],
  ["idle", "close", "closed"],
  ["starting", "connected", "ready"],
  ["starting", "failed", "down"],
  ["starting", "needsLogin", "needs_login"],
  ["starting", "close", "closed"],
  ["ready", "lost", "down"],
  ["ready", "needsLogin", "needs_login"],
  ["ready", "close", "closed"],
  ["restarting", "connected", "ready"],
  ["restarting", "failed", "down"],
  ["restarting", "needsLogin", "needs_login"],
  ["restarting", "close", "closed"],
  ["down", "restart", "restarting"],
  ["down", "close", "closed"],
  ["needs_login", "loggedIn", "starting"],
  ["needs_login", "close", "closed"],
  ["closed", "close", "closed"],
];

describe("the upstream state machine", () => {
  it("has exactly the listed states", () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...STATES].sort());
  });

  it.each(EXPECTED)("moves %s --%s--> %s", (from, event, to) => {
    expect(nextState("s", from, event)).toBe(to);
  });

  const legal = new Set(EXPECTED.map(([from, event]) => `${from}/${event}`));
  const illegal = STATES.flatMap((from) =>
    EVENTS.filter((event) => !legal.has(`${from}/${event}`)).map((event) => [from, event] as const),
  );

  it("lists no move beyond the expected ones", () => {
    const listed = STATES.flatMap((from) =>
      Object.keys(TRANSITIONS[from]).map((event) => `${from}/${event}`),
    );
    expect(listed.sort()).toEqual([...legal].sort());
    expect(illegal.length + legal.size).toBe(STATES.length * EVENTS.length);
  });

  it.each(illegal)(
    "refuses %s --%s--> with the state, the event and the legal ones",
    (from, event) => {
      expect(() => nextState("fs", from, event)).toThrow(IllegalTransitionError);
      expect(() => nextState("fs", from, event)).toThrow(
        new RegExp(
          `Upstream "fs" cannot take event "${event}" in state "${from}" \\(legal there: `,
        ),
      );
    },
  );

  it("walks a life: start, crash, failed restart, restart, login, close", () => {
    const moves: string[] = [];
    const life = createUpstreamLife("fs", (from, to, event) =>
      moves.push(`${from}-${event}-${to}`),
    );
    expect(life.state).toBe("idle");
    for (const event of ["start", "connected", "lost", "restart", "failed", "restart"] as const) {
      life.advance(event);
    }
    expect(life.state).toBe("restarting");
    life.advance("needsLogin");
    expect(life.can("restart")).toBe(false);
    expect(() => life.advance("restart")).toThrow(IllegalTransitionError);
    // a refused move leaves the state as it was
    expect(life.state).toBe("needs_login");
    life.advance("loggedIn");
    life.advance("close");
    expect(life.state).toBe("closed");
    expect(() => life.advance("start")).toThrow(/cannot take event "start" in state "closed"/);
    expect(moves).toEqual([
      "idle-start-starting",
      "starting-connected-ready",
      "ready-lost-down",
      "down-restart-restarting",
      "restarting-failed-down",
      "down-restart-restarting",
      "restarting-needsLogin-needs_login",
      "needs_login-loggedIn-starting",
      "starting-close-closed",
    ]);
  });
});
