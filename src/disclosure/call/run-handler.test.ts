import { describe, expect, it } from "vitest";
import type { ToolResult } from "../../catalog/index.js";
import { runHandler, toToolResult } from "./run-handler.js";

const textOf = (result: ToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

describe("toToolResult", () => {
  it("keeps a circular or BigInt value readable instead of [object Object]", () => {
    const node: { [key: string]: unknown } = { id: 1, big: 12n };
    node.self = node;
    const shared = { x: 1 };
    const text = textOf(toToolResult({ node, a: shared, b: shared }));
    expect(JSON.parse(text)).toEqual({
      node: { id: 1, big: "12", self: "[Circular]" },
      a: { x: 1 },
      b: { x: 1 },
    });
  });

  it("makes an MCP result's structuredContent and text blocks JSON-safe", () => {
    const loop: { [key: string]: unknown } = { n: 2n };
    loop.loop = loop;
    const result = toToolResult({
      content: [{ type: "text", text: 5 as unknown as string }],
      structuredContent: loop,
    });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);
    expect(result.structuredContent).toEqual({ n: "2", loop: "[Circular]" });
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it("passes a well-formed MCP result through unchanged", () => {
    const result: ToolResult = {
      content: [{ type: "text", text: "ok" }],
      structuredContent: { a: [1, 2] },
    };
    expect(toToolResult(result)).toBe(result);
  });
});

describe("runHandler", () => {
  it("turns a circular return value into readable JSON text", async () => {
    const value: { [key: string]: unknown } = { ok: true };
    value.self = value;
    const result = await runHandler("t", () => value as never, {}, "s", 1_000);
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual({ ok: true, self: "[Circular]" });
  });
});

describe("runHandler time limits", () => {
  it("treats Infinity and limits beyond the timer range as no limit, not as 1 ms", async () => {
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 20));
    for (const timeoutMs of [Number.POSITIVE_INFINITY, 2 ** 31, 1e12]) {
      const result = await runHandler("slow", slow, {}, "s", timeoutMs);
      expect(result, String(timeoutMs)).toEqual({ content: [{ type: "text", text: "done" }] });
    }
  });
});

describe("toToolResult on values JSON cannot serialise", () => {
  it("marks a throwing toJSON or getter in place instead of sending [object Object]", () => {
    const value = {
      id: 7,
      broken: {
        toJSON() {
          throw new Error("socket closed");
        },
      },
      get secret(): string {
        throw new Error("no access");
      },
    };
    const text = (toToolResult(value).content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual({
      id: 7,
      broken: "[toJSON threw: socket closed]",
      secret: "[getter threw: no access]",
    });
  });

  it("cuts nesting deeper than 256 levels with a marker", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 20_000; level++) deep = [deep];
    const text = (toToolResult(deep).content[0] as { text: string }).text;
    expect(text).toContain("nested deeper than 256 levels");
    expect(() => JSON.parse(text)).not.toThrow();
  });
});
