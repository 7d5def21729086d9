import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "./config/load-gateway-config.js";
import { createMCPToolSift } from "./create-mcp-toolsift.js";
import type { MCPLogEntry } from "./types.js";

describe("secrets in upstream URLs", () => {
  it("never shows an expanded ?api_key= or userinfo to the model, the log or the status", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-secret-url-"));
    const file = path.join(dir, "gateway.json");
    await writeFile(
      path.join(dir, "remote.json"),
      JSON.stringify([{ name: "ping", description: "Ping.", inputSchema: { type: "object" } }]),
    );
    await writeFile(
      file,
      JSON.stringify({
        servers: {
          // port 9 (discard) refuses on loopback: the call fails and its error names the URL
          remote: {
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax
            url: "http://alice:pw@127.0.0.1:9/mcp?api_key=${KEY}",
            lazy: true,
            catalog: "remote.json",
          },
        },
      }),
    );
    const config = await loadGatewayConfig(file, { env: { KEY: "sekrit-value" } });
    const logs: MCPLogEntry[] = [];
    const sift = await createMCPToolSift({
      servers: config.servers,
      disclosure: { mode: "off" },
      log: (entry) => logs.push(entry),
    });
    try {
      const name = sift.catalog.list().find((tool) => tool.name.endsWith("ping"))?.name as string;
      const result = await sift.execute({ session: "s", name, arguments: {} });
      const seen = [
        JSON.stringify(result),
        JSON.stringify(logs),
        JSON.stringify(sift.upstreams.status()),
      ].join("\n");
      expect(result.isError).toBe(true);
      expect(seen).toContain("127.0.0.1:9/mcp");
      expect(seen).not.toContain("sekrit-value");
      expect(seen).not.toContain("alice:pw");
    } finally {
      await sift.close();
    }
  });
});
