import { describe, expect, it } from "vitest";
import { createSessionResultBudgets, MAX_BUDGET_SESSIONS } from "./session-result-budgets.js";

describe("createSessionResultBudgets", () => {
  it("counts each session against its own total", () => {
    const budgets = createSessionResultBudgets({ totalResults: 100 });
    budgets.session("a").record("read", 90);
    budgets.session("b").record("read", 10);
    expect(budgets.session("a").remaining).toBe(10);
    expect(budgets.session("b").remaining).toBe(90);
    expect(budgets.used).toBe(100);
  });

  it("sums every session in the snapshot, with the fullest session's room as remaining", () => {
    const budgets = createSessionResultBudgets({ totalResults: 100 });
    budgets.session("a").record("read", 70);
    budgets.session("b").record("read", 5);
    budgets.session("b").record("list", 5);
    expect(budgets.snapshot()).toEqual({
      used: 80,
      remaining: 30,
      total: 100,
      byTool: { read: 75, list: 5 },
      calls: 3,
    });
    expect(budgets.snapshot("b")).toMatchObject({ used: 10, remaining: 90, calls: 2 });
    expect(budgets.snapshot("nobody")).toMatchObject({ used: 0, remaining: 100, calls: 0 });
  });

  it("resets one session or all of them", () => {
    const budgets = createSessionResultBudgets({ totalResults: 100 });
    budgets.session("a").record("read", 40);
    budgets.session("b").record("read", 40);
    budgets.reset("a");
    expect(budgets.snapshot("a").used).toBe(0);
    expect(budgets.snapshot("b").used).toBe(40);
    budgets.reset();
    expect(budgets.used).toBe(0);
  });

  it("keeps at most MAX_BUDGET_SESSIONS sessions, dropping the least recently used", () => {
    const budgets = createSessionResultBudgets({ totalResults: 100 });
    budgets.session("first").record("read", 50);
    for (let n = 0; n < MAX_BUDGET_SESSIONS; n += 1) budgets.session(`s${n}`).record("read", 1);
    expect(budgets.snapshot("first").used).toBe(0);
    expect(budgets.used).toBe(MAX_BUDGET_SESSIONS);
  });

  it("rejects a bad total at creation, naming it", () => {
    expect(() => createSessionResultBudgets({ totalResults: -1 })).toThrow(/totalResults/);
  });
});
