import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import type { MCPLogEntry } from "../types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");

describe("re-listing on tools/list_changed", () => {
  it("logs the re-listing once per connection at info (the rest at debug), and still re-lists", async () => {
    const logs: MCPLogEntry[] = [];
    const sift = await createMCPToolSift({
      servers: { fault: { command: "node", args: [faultServer] } },
      disclosure: { mode: "off" },
      log: (entry) => logs.push(entry),
    });
    try {
      const grow = sift.catalog.list().find((tool) => tool.name.endsWith("grow"))?.name as string;
      for (let round = 0; round < 3; round++) {
        await sift.execute({ session: "s", name: grow, arguments: {} });
      }
      await expect
        .poll(() => sift.catalog.list().some((tool) => tool.name.endsWith("extra")), {
          timeout: 10_000,
        })
        .toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const relists = logs.filter((entry) => entry.message.includes("re-listing"));
      expect(relists.length).toBeGreaterThanOrEqual(1);
      expect(relists.filter((entry) => entry.level === "info")).toHaveLength(1);
    } finally {
      await sift.close();
    }
  });
});
