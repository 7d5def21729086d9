import { describe, expect, it } from "vitest";
import { createResourceSubscriptions } from "./resource-subscriptions.js";

/** A registry over a fake upstream that records each subscribe and unsubscribe it is sent. */
function setup(maxPerSession = 3, fail = new Set<string>()) {
  const sent: string[] = [];
  const subscriptions = createResourceSubscriptions(
    async (uri, on) => {
      sent.push(`${on ? "+" : "-"}${uri}`);
      if (fail.has(uri)) throw new Error(`no ${uri}`);
    },
    { maxPerSession },
  );
  return { subscriptions, sent };
}

describe("resource subscriptions of gateway sessions", () => {
  it("caps a session's subscriptions, naming the limit and the fix; unsubscribing frees a place", async () => {
    const { subscriptions } = setup(3);
    const a = {};
    for (const uri of ["r://1", "r://2", "r://3"]) await subscriptions.add(a, uri);
    // subscribing again to a URI the session holds takes no new place
    await subscriptions.add(a, "r://3");
    const refused = await subscriptions.add(a, "r://4").then(
      () => "subscribed",
      (error: Error) => error.message,
    );
    expect(refused).toContain("3 resource subscriptions");
    expect(refused).toContain("maxSubscriptions");
    expect(refused).toContain("resources/unsubscribe");
    // another session has its own places
    await subscriptions.add({}, "r://4");
    await subscriptions.remove(a, "r://1");
    await subscriptions.add(a, "r://4");
    expect(subscriptions.has(a, "r://4")).toBe(true);
    expect(subscriptions.has(a, "r://1")).toBe(false);
    expect(subscriptions.count(a)).toBe(3);
  });

  it("refuses a URI longer than a session may keep", async () => {
    const { subscriptions, sent } = setup();
    const refused = await subscriptions.add({}, `r://${"x".repeat(5_000)}`).then(
      () => "subscribed",
      (error: Error) => error.message,
    );
    expect(refused).toContain("4096 characters");
    expect(sent).toEqual([]);
  });

  it("subscribes upstream once per URI and unsubscribes only when no session holds it", async () => {
    const { subscriptions, sent } = setup();
    const a = {};
    const b = {};
    await subscriptions.add(a, "r://shared");
    await subscriptions.add(b, "r://shared");
    await subscriptions.remove(a, "r://shared");
    // b still wants updates: the upstream subscription stays
    expect(sent).toEqual(["+r://shared"]);
    expect(subscriptions.has(b, "r://shared")).toBe(true);
    await subscriptions.remove(b, "r://shared");
    expect(sent).toEqual(["+r://shared", "-r://shared"]);
    // unsubscribing what the session never subscribed to sends nothing upstream
    await subscriptions.remove(b, "r://never");
    expect(sent).toEqual(["+r://shared", "-r://shared"]);
  });

  it("frees a closed session's subscriptions, unsubscribing upstream those no one else holds", async () => {
    const { subscriptions, sent } = setup();
    const a = {};
    const b = {};
    await subscriptions.add(a, "r://1");
    await subscriptions.add(a, "r://2");
    await subscriptions.add(b, "r://2");
    await subscriptions.release(a);
    expect(subscriptions.count(a)).toBe(0);
    expect(subscriptions.count()).toBe(1);
    expect(sent).toEqual(["+r://1", "+r://2", "-r://1"]);
  });

  it("takes nothing when the upstream refuses, for every session waiting on that subscribe", async () => {
    const { subscriptions } = setup(3, new Set(["r://bad"]));
    const a = {};
    const b = {};
    const both = await Promise.allSettled([
      subscriptions.add(a, "r://bad"),
      subscriptions.add(b, "r://bad"),
    ]);
    expect(both.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect(subscriptions.count()).toBe(0);
    expect(subscriptions.has(b, "r://bad")).toBe(false);
  });
});
