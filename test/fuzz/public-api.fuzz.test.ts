/**
 * Issue 14's fuzz suite: random and hostile catalogs, queries (regex included), arguments, handler
 * results and provider responses through the public API. Properties: nothing escapes a no-throw
 * API, no call costs over 1 s of CPU (wall time is printed, not asserted: a loaded machine
 * stretches it), a policy-hidden tool is never named, budgets hold. Seeded and bounded
 * (`FUZZ_SEED`, fixed run counts); the counts per category and the slowest calls are printed.
 */

import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/catalog/index.js";
import { createToolSift, type ToolSift } from "../../src/create-toolsift.js";
import { isToolsiftError } from "../../src/errors.js";
import { cpuMsAsync } from "../cpu-time.js";
import {
  catalog,
  FUZZ_SEED,
  HIDDEN_MARK,
  HIDDEN_SERVER,
  handlerResult,
  modelArguments,
  query,
  toolName,
} from "./generators.js";

const counts: Record<string, number> = {};
/** Calls over the CPU limit in the running test; each test fails on its own (afterEach). */
const slow: string[] = [];
/** CPU ms one call may cost. */
const SLOW_MS = 1_000;
let slowest = { label: "", cpu: 0, wall: 0 };
const RESULT_TOKENS = 400;
const SEARCH_TOKENS = 600;
const DESCRIBE_TOKENS = 1_000;

function tally(category: string, n = 1): void {
  counts[category] = (counts[category] ?? 0) + n;
}

async function timed<T>(label: string, run: () => T | Promise<T>): Promise<T> {
  const start = performance.now();
  const { value, ms } = await cpuMsAsync(async () => await run());
  if (ms > SLOW_MS) slow.push(`${label}: ${Math.round(ms)} CPU ms`);
  if (ms > slowest.cpu) slowest = { label, cpu: ms, wall: performance.now() - start };
  return value;
}

/** A toolsift over the tools, hiding the denied server; rejected tools are counted, not fatal. */
function siftOver(tools: readonly ToolDefinition[], mode: "off" | "on" | "auto"): ToolSift {
  const sift = createToolSift({
    tokens: "estimate",
    policy: { layers: [{ label: "fuzz", deny: [`server:${HIDDEN_SERVER}`] }] },
    budget: { perToolResult: RESULT_TOKENS, toolDefinitions: 3_000 },
    disclosure: {
      mode,
      strategy: "bridge",
      searchResponseTokens: SEARCH_TOKENS,
      describeResponseTokens: DESCRIBE_TOKENS,
    },
    onWarning: () => tally("warnings"),
  });
  for (const tool of tools) {
    try {
      sift.catalog.add([tool]);
      tally("tools added");
    } catch (error) {
      // the host's catalog API may refuse a bad definition, with a ToolsiftError
      expect(isToolsiftError(error)).toBe(true);
      tally("tools refused by catalog.add");
    }
  }
  return sift;
}

function expectNoHidden(value: unknown): void {
  expect(JSON.stringify(value ?? null).toLowerCase()).not.toContain(HIDDEN_MARK);
}

function textTokens(sift: ToolSift, outcome: { content: readonly unknown[] }): number {
  let total = 0;
  for (const block of outcome.content as { type: string; text?: string }[]) {
    if (block.type === "text") total += sift.tokenCounter.count(block.text ?? "");
  }
  return total;
}

const mode = fc.constantFrom("off" as const, "on" as const, "auto" as const);
const params = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: true });

afterEach(() => {
  expect(slow.splice(0)).toEqual([]);
});

afterAll(() => {
  console.log(`fuzz counts (seed ${FUZZ_SEED}): ${JSON.stringify(counts)}`);
  console.log(
    `slowest call: ${slowest.label.slice(0, 80)} ${Math.round(slowest.cpu)} CPU ms, ${Math.round(slowest.wall)} wall ms`,
  );
});

describe("fuzz: public API", () => {
  it("catalogs: prepare never throws, never names a hidden tool, keeps the definitions budget", async () => {
    await fc.assert(
      fc.asyncProperty(
        catalog,
        mode,
        fc.constantFrom(
          "anthropic",
          "openai-chat",
          "openai-responses",
          "gemini",
        ) as fc.Arbitrary<"anthropic">,
        async (tools, chosen, provider) => {
          const sift = siftOver(tools, chosen);
          const plan = await timed("prepare", () => sift.prepare({ session: "s" }));
          expectNoHidden(plan);
          if (plan.budget && !plan.budget.overBudget)
            expect(plan.budget.used).toBeLessThanOrEqual(plan.budget.limit);
          const turn = await timed(`prepare ${provider}`, () =>
            sift.prepare({ session: "s", provider }),
          );
          expectNoHidden(turn);
          tally("catalogs");
        },
      ),
      params(60),
    );
  });

  it("queries: search throws only ToolsiftError; tool_search never throws, hides, keeps its budget", async () => {
    await fc.assert(
      fc.asyncProperty(
        catalog,
        fc.array(query, { minLength: 1, maxLength: 6 }),
        async (tools, queries) => {
          const sift = siftOver(tools, "on");
          for (const q of queries) {
            try {
              expectNoHidden(await timed(`search ${JSON.stringify(q)}`, () => sift.search(q)));
            } catch (error) {
              if (!isToolsiftError(error)) throw error;
              tally("search refusals (ToolsiftError)");
            }
            tally("queries: search");
          }
          const outcome = await timed(`tool_search ${JSON.stringify(queries)}`, () =>
            sift.execute({ session: "s", name: "tool_search", arguments: { queries } }),
          );
          expectNoHidden(outcome);
          expect(textTokens(sift, outcome)).toBeLessThanOrEqual(SEARCH_TOKENS);
          tally("queries: tool_search calls");
          const described = await timed("tool_describe", () =>
            sift.execute({
              session: "s",
              name: "tool_describe",
              arguments: { names: [...queries, ...tools.map((tool) => tool.name)].slice(0, 10) },
            }),
          );
          // hidden names are passed on purpose: they must be answered as unknown, never described
          const describedText = (described.content[0] as { text?: string } | undefined)?.text ?? "";
          expect(describedText).not.toContain(`"name":"${HIDDEN_MARK}`);
          expect(describedText).not.toContain(`"server":"${HIDDEN_SERVER}"`);
          // fuzz schemas are small, so the whole answer fits; only one oversized schema may not
          expect(textTokens(sift, described)).toBeLessThanOrEqual(DESCRIBE_TOKENS);
          tally("queries: tool_describe calls");
        },
      ),
      params(80),
    );
  });

  it("arguments: execute never throws; hidden tools never run and answer like unknown ones", async () => {
    await fc.assert(
      fc.asyncProperty(
        catalog,
        fc.array(fc.tuple(fc.nat(), toolName, modelArguments), { minLength: 1, maxLength: 8 }),
        async (tools, calls) => {
          const sift = siftOver(tools, "on");
          const names = [
            ...tools.map((tool) => tool.name),
            "tool_search",
            "tool_describe",
            "tool_call",
          ];
          for (const [pick, fallback, args] of calls) {
            const name = pick % 3 === 0 ? fallback : (names[pick % names.length] as string);
            const hidden = name.includes(HIDDEN_MARK);
            const outcome = await timed(`execute ${name}`, () =>
              sift.execute({ session: "s", name, arguments: args }),
            );
            if (hidden) {
              expect(outcome.ran).toBe(false);
              expect(outcome.errorCode).toBe("tool_not_found");
              tally("arguments: hidden-tool calls");
            } else {
              expectNoHidden(outcome.content);
              tally("arguments: calls");
            }
            if (outcome.ran && outcome.route !== "meta") {
              expect(textTokens(sift, outcome)).toBeLessThanOrEqual(RESULT_TOKENS);
              tally("results: budgeted handler results");
            }
          }
        },
      ),
      params(80),
    );
  });

  it("results: any handler result comes back within the per-result budget, never throwing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(handlerResult, { minLength: 1, maxLength: 6 }), async (results) => {
        const tools = results.map((result, index) => ({
          name: `result_tool_${index}`,
          server: "fs",
          description: "Returns something.",
          inputSchema: { type: "object", properties: {} },
          handler: () => result as never,
        }));
        const sift = siftOver(tools, "off");
        for (const tool of tools) {
          const outcome = await timed(`execute ${tool.name}`, () =>
            sift.execute({ session: "s", name: tool.name, arguments: {} }),
          );
          expect(outcome.ran).toBe(true);
          expect(textTokens(sift, outcome)).toBeLessThanOrEqual(RESULT_TOKENS);
          tally("results: handler results");
        }
      }),
      params(60),
    );
  });

  it("responses: respond never throws on well-formed provider turns and never names a hidden tool", async () => {
    await fc.assert(
      fc.asyncProperty(
        catalog,
        fc.array(fc.tuple(toolName, modelArguments), { minLength: 1, maxLength: 4 }),
        async (tools, uses) => {
          const sift = siftOver(tools, "auto");
          await timed("prepare anthropic", () =>
            sift.prepare({ session: "s", provider: "anthropic" }),
          );
          const response = {
            role: "assistant",
            content: uses.map(([name, input], index) => ({
              type: "tool_use",
              id: `toolu_${index}`,
              name,
              input:
                typeof input === "object" && input !== null && !Array.isArray(input) ? input : {},
            })),
          };
          const outcome = await timed("respond", () =>
            sift.respond({ session: "s", provider: "anthropic", response }),
          );
          expectNoHidden(outcome.results);
          tally("responses");
          tally("responses: tool_use blocks", uses.length);
        },
      ),
      params(50),
    );
  });
});
