/**
 * The contract every provider formatter meets: each sent tool appears once, names are legal,
 * deferred tools are marked or absent as the mode says, meta tools are present in client mode,
 * output is deterministic, and every sent name parses back to its catalog name.
 */
import { describe, expect, it } from "vitest";
import type { TurnPlan } from "../../src/disclosure/index.js";
import type {
  BaseFormatOptions,
  FormattedTools,
  ProviderFormatter,
} from "../../src/providers/index.js";
import { type CallLog, createHarness, e2eTools } from "../e2e/harness.js";

type AnyFormatted = FormattedTools<unknown, unknown, unknown>;
type AnyFormatter = ProviderFormatter<
  BaseFormatOptions,
  unknown,
  unknown,
  unknown,
  unknown,
  unknown
>;

/** What the contract needs to know about one provider. */
export interface ContractSubject {
  name: string;
  create(): AnyFormatter;
  namePattern: RegExp;
  /** Whether the provider can format plans prepared with `nativeSearch: true`. */
  native: boolean;
  /** How still-deferred tools appear in client mode: left out, or sent marked as deferred. */
  clientDeferred: "absent" | "marked";
  /** Revealed tools reach the model through the conversation (e.g. `tool_search_output`), not `tools`. */
  revealedInConversation?: boolean;
  /** Provider names of the tools the request sends, split by whether they are marked deferred. */
  inspect(formatted: AnyFormatted): { loaded: string[]; deferred: string[] };
  /** A provider response calling these tools. */
  response(calls: { id: string; providerName: string; arguments: unknown }[]): unknown;
}

async function plans() {
  const log: CallLog = [];
  const tools = e2eTools(log);
  const sift = createHarness(tools);
  const bridge = createHarness(tools, { strategy: "bridge" });
  await sift.disclosure.execute({
    session: "r",
    name: "tool_search",
    arguments: { queries: ["weather"] },
  });
  return {
    tools,
    off: sift.disclosure.prepare({ session: "o", mode: "off" }),
    client: sift.disclosure.prepare({ session: "r" }),
    bridge: bridge.disclosure.prepare({ session: "b" }),
    native: sift.disclosure.prepare({ session: "n", nativeSearch: true }),
  };
}

function counts(names: readonly string[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const name of names) result.set(name, (result.get(name) ?? 0) + 1);
  return result;
}

function expectOnce(names: readonly string[]) {
  const repeated = [...counts(names)].filter(([, count]) => count > 1);
  expect(repeated).toEqual([]);
}

/** Runs the formatter contract for one provider. */
export function runFormatterContract(subject: ContractSubject): void {
  describe(`${subject.name} formatter contract`, () => {
    const providerNames = (formatted: AnyFormatted, plan: TurnPlan, group: "loaded" | "meta") =>
      (group === "loaded" ? plan.loaded : plan.metaTools).map(
        (tool) => formatted.providerNames.get(tool.name) ?? "(missing)",
      );

    it("sends every tool once with legal names when disclosure is off", async () => {
      const { off, tools } = await plans();
      const formatted = subject.create().formatTools(off);
      const seen = subject.inspect(formatted);
      expect(seen.deferred).toEqual([]);
      expectOnce(seen.loaded);
      expect(seen.loaded.length).toBe(tools.length);
      for (const name of seen.loaded) expect(name).toMatch(subject.namePattern);
      expect(formatted.system).toBe("");
    });

    it("client mode: meta tools and loaded tools once, deferred tools as the mode says", async () => {
      const { client } = await plans();
      const formatted = subject.create().formatTools(client);
      expect(formatted.mode).toBe("client");
      const seen = subject.inspect(formatted);
      const loaded = providerNames(formatted, client, "loaded");
      const meta = providerNames(formatted, client, "meta");
      expect(meta).toEqual(["tool_search"]);
      expectOnce([...seen.loaded, ...seen.deferred]);
      for (const name of [...seen.loaded, ...seen.deferred])
        expect(name).toMatch(subject.namePattern);
      const deferred = client.deferred.map((view) => formatted.providerNames.get(view.name));
      const revealed = loaded.slice(loaded.length - client.stats.revealed);
      expect(revealed).toEqual(["weather_forecast"]);
      if (subject.revealedInConversation) {
        for (const name of revealed) expect(seen.loaded).not.toContain(name);
        loaded.splice(loaded.length - revealed.length);
      }
      if (subject.clientDeferred === "absent") {
        for (const name of [...loaded, ...meta])
          expect([...seen.loaded, ...seen.deferred]).toContain(name);
        for (const name of deferred) expect([...seen.loaded, ...seen.deferred]).not.toContain(name);
      } else {
        for (const name of deferred) expect(seen.deferred).toContain(name);
        expect(seen.loaded).toContain("tool_search");
      }
      expect(formatted.system).toContain("tool_search");
    });

    it("bridge strategy sends the three meta tools and no deferred tool", async () => {
      const { bridge } = await plans();
      const formatted = subject.create().formatTools(bridge);
      const seen = subject.inspect(formatted);
      for (const name of ["tool_search", "tool_describe", "tool_call"])
        expect(seen.loaded).toContain(name);
      expect(seen.deferred).toEqual([]);
      expect(seen.loaded).toHaveLength(4);
    });

    if (subject.native) {
      it("native mode marks every deferred tool and sends no meta tool", async () => {
        const { native } = await plans();
        const formatted = subject.create().formatTools(native);
        expect(formatted.mode).toBe("native");
        const seen = subject.inspect(formatted);
        expect(seen.loaded).not.toContain("tool_search");
        const deferred = native.deferred.map((view) => formatted.providerNames.get(view.name));
        expect([...seen.deferred].sort()).toEqual([...deferred].sort());
        for (const name of providerNames(formatted, native, "loaded"))
          expect(seen.loaded).toContain(name);
        expectOnce([...seen.loaded, ...seen.deferred]);
      });
    } else {
      it("refuses a native plan instead of dropping the search", async () => {
        const { native } = await plans();
        expect(() => subject.create().formatTools(native)).toThrow(/no native tool search/);
      });
    }

    it("is deterministic: the same plan gives identical JSON bytes", async () => {
      const { client, off } = await plans();
      for (const plan of [client, off]) {
        const first = JSON.stringify(subject.create().formatTools(plan).request);
        const second = JSON.stringify(subject.create().formatTools(plan).request);
        expect(second).toBe(first);
      }
    });

    it("parses every sent name back to its catalog name", async () => {
      const { off } = await plans();
      const formatter = subject.create();
      const formatted = formatter.formatTools(off);
      const sent = subject.inspect(formatted).loaded;
      const calls = formatter.parseCalls(
        subject.response(
          sent.map((providerName, index) => ({ id: `c${index}`, providerName, arguments: {} })),
        ),
      );
      expect(calls.map((call) => call.name)).toEqual(
        sent.map((name) => formatted.names.fromProvider(name)),
      );
      expect(calls.map((call) => call.name)).toContain("weather.forecast");
      expect(calls.every((call) => call.kind === "function")).toBe(true);
    });
  });
}
