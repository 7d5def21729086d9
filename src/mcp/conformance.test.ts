import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createMCPToolSift } from "./create-mcp-toolsift.js";
import { serveHttp } from "./serve/serve-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = path.join(root, "test/fixtures/mcp/conformance-server.mjs");
const suite = path.join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** Every server scenario of @modelcontextprotocol/conformance 0.1.13 (the active suite and the
 * two pending ones) passes through the gateway (direct mode, bare names) with the fixture
 * upstream. `server-sse-polling` passes with two warnings (no priming event, no retry field),
 * explained in docs/mcp-gateway.md. */
const EXPECTED = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "json-schema-2020-12",
  "elicitation-sep1034-defaults",
  "server-sse-polling",
  "server-sse-multiple-streams",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
];

describe("the MCP conformance suite against toolsift serve --http --mode direct", () => {
  it("passes every server scenario through the gateway", async () => {
    const sift = await createMCPToolSift({
      naming: "bare",
      servers: { fixture: { command: "node", args: [fixture] } },
    });
    const running = await serveHttp({ sift, mode: "direct" });
    try {
      // the suite writes result folders into its working directory
      const cwd = await mkdtemp(path.join(tmpdir(), "toolsift-conformance-"));
      const url = (running.url as string).replace("127.0.0.1", "localhost");
      const output = await promisify(execFile)(
        process.execPath,
        [suite, "server", "--url", url, "--suite", "all"],
        {
          cwd,
          timeout: 150_000,
          maxBuffer: 16 * 1024 * 1024,
        },
      ).then(
        (done) => done.stdout,
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      const summary = new Map(
        [...output.matchAll(/^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed/gmu)].map((match) => [
          match[2],
          match[1] === "✓",
        ]),
      );
      const failed = EXPECTED.filter((scenario) => summary.get(scenario) !== true);
      expect(failed, output.slice(output.indexOf("=== SUMMARY"))).toEqual([]);
    } finally {
      await running.close();
    }
  }, 180_000);
});
