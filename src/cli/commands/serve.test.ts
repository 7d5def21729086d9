import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { capture } from "../__tests__/capture.js";
import { runCli } from "../run-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");

describe("toolsift serve --inspect", () => {
  it("watches a stdio gateway: the inspector's URL on stderr, the client's calls in its sessions", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-serve-inspect-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { fault: { command: "node", args: [faultServer] } } }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        "--import",
        "tsx",
        path.join(root, "src/cli/main.ts"),
        "serve",
        "--config",
        config,
        "--inspect",
      ],
      cwd: root,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const client = new Client({ name: "desktop-app", version: "3" });
    // stdout carries only the protocol: a stray line there would break this connection
    await client.connect(transport);
    try {
      await expect.poll(() => stderr, { timeout: 20_000 }).toMatch(/inspector: .* at http:/);
      const url = /sessions of this gateway at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr)?.[1];
      expect(url).toBeDefined();
      await client.callTool({
        name: "tool_call",
        arguments: { name: "fault__echo", arguments: { text: "hi" } },
      });
      const view = (await (await fetch(`${url}api/sessions`)).json()) as {
        source: string;
        sessions: { id: string; client: string; events: { tool: string; ok: boolean }[] }[];
      };
      expect(view.source).toContain("gateway.json (bridge mode)");
      expect(view.sessions).toEqual([
        expect.objectContaining({
          id: "stdio",
          client: "desktop-app 3",
          events: [expect.objectContaining({ tool: "fault__echo", ok: true })],
        }),
      ]);
    } finally {
      await client.close();
    }
    // the gateway ends with its client, and the inspector with it
    const url = /sessions of this gateway at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr)?.[1];
    await expect
      .poll(
        () =>
          fetch(`${url}api/sessions`).then(
            () => "up",
            () => "gone",
          ),
        { timeout: 10_000 },
      )
      .toBe("gone");
  });

  it("refuses a bad --inspect-port, naming the flag", async () => {
    const io = capture();
    expect(await runCli(["serve", "--config", "x.json", "--inspect-port", "99999"], io)).toBe(2);
    expect(io.err).toContain("--inspect-port must be a whole number");
  });
});
