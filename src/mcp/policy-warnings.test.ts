import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMCPToolSift } from "./create-mcp-toolsift.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const memory = path.join(root, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

describe("createMCPToolSift and policy rules that match nothing", () => {
  it("warns about a selector once the servers' tools are listed", async () => {
    const warnings: string[] = [];
    const sift = await createMCPToolSift({
      servers: { "memory-server": { command: process.execPath, args: [memory] } },
      policy: { rules: [{ label: "host", deny: ["server:memory"] }] },
      onWarning: (message) => warnings.push(message),
    });
    try {
      expect(sift.catalog.list().length).toBeGreaterThan(0);
      expect(warnings.join("\n")).toContain(
        'deny selector "server:memory" matches no tool in the catalog, so it hides nothing. Did you mean "server:memory-server"?',
      );
    } finally {
      await sift.close();
    }
  });
});
