// `toolsift learning show|erase`, and the gateway keeping its learning file (on by default,
// off with --no-learning), end to end over stdio.
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { cliGatewayTransport } from "../../../test/cli-gateway.js";
import { UsageEvidence } from "../../learning/index.js";
import { defaultLearningFile, writeLearningFile } from "../../learning/node.js";
import { capture } from "../__tests__/capture.js";
import { runCli } from "../run-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");
const fill = { name: "fill", description: "Fill an input", inputSchema: { type: "object" } };

async function configWith(learning: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-learning-cli-"));
  const config = path.join(dir, "gateway.json");
  const servers = { fault: { command: "node", args: [faultServer] } };
  await writeFile(
    config,
    JSON.stringify({ servers, ...(learning === undefined ? {} : { learning }) }),
  );
  return config;
}

describe("toolsift learning", () => {
  it("shows the learned words per tool, then erases the file", async () => {
    const config = await configWith({ file: "learned.json" });
    const evidence = new UsageEvidence();
    for (const session of ["a", "b", "c"]) evidence.record("type login", fill, session);
    evidence.record("password", fill, "a");
    writeLearningFile(path.join(path.dirname(config), "learned.json"), evidence.toJSON());
    const shown = capture();
    expect(await runCli(["learning", "show", "--config", config], shown)).toBe(0);
    expect(shown.out).toContain(
      "fill: login (0.50, 3 sessions), login type (0.50, 3 sessions), type (0.50, 3 sessions); 1 word(s) not yet counted",
    );
    const json = capture();
    await runCli(["learning", "show", "--config", config, "--json"], json);
    expect(JSON.parse(json.out)).toEqual([
      {
        tool: "fill",
        words: [
          { word: "login", sessions: 3, weight: 0.5 },
          // the whole query "type login", as its key
          { word: "login type", sessions: 3, weight: 0.5 },
          { word: "type", sessions: 3, weight: 0.5 },
        ],
        pending: 1,
      },
    ]);
    const erased = capture();
    expect(await runCli(["learning", "erase", "--config", config], erased)).toBe(0);
    expect(erased.out).toMatch(/^Erased .*learned\.json\.$/m);
    const again = capture();
    await runCli(["learning", "show", "--config", config], again);
    expect(again.out).toMatch(/^Nothing learned yet: no file at .*learned\.json\.$/m);
  });

  it("says when learning is off, and names a missing action", async () => {
    const off = capture();
    await runCli(["learning", "show", "--config", await configWith(false)], off);
    expect(off.out).toContain('("learning": false): nothing is kept');
    const bad = capture();
    expect(await runCli(["learning", "--file", "x.json"], bad)).toBe(2);
    expect(bad.err).toContain('Say what to do: "show" or "erase"');
  });
});

/** A stdio gateway session that searches, then calls the tool it found. */
async function searchThenCall(config: string, state: string, extra: string[] = []) {
  const transport = cliGatewayTransport(config, [...extra], {
    ...(process.env as Record<string, string>),
    XDG_STATE_HOME: state,
  });
  const client = new Client({ name: "learning-test", version: "1" });
  await client.connect(transport);
  try {
    // the upstream comes up in the background: search until its tools are in
    await expect
      .poll(
        async () => {
          const result = await client.callTool({
            name: "tool_search",
            arguments: { query: "echo the text back" },
          });
          return JSON.stringify(result.content);
        },
        { timeout: 30_000 },
      )
      .toContain("fault__echo");
    const called = await client.callTool({
      name: "tool_call",
      arguments: { name: "fault__echo", arguments: { text: "hi" } },
    });
    expect(called.isError ?? false).toBe(false);
  } finally {
    await client.close();
  }
}

describe("the gateway's learning", () => {
  it("is on by default: a session's search and call land in the state folder's file", async () => {
    const config = await configWith(undefined);
    const state = await mkdtemp(path.join(tmpdir(), "toolsift-state-"));
    await searchThenCall(config, state);
    const file = defaultLearningFile(config, { XDG_STATE_HOME: state });
    await expect.poll(() => existsSync(file), { timeout: 20_000 }).toBe(true);
    const shown = capture({ env: { XDG_STATE_HOME: state } });
    await runCli(["learning", "show", "--config", config, "--json"], shown);
    // one session so far: recorded, not yet counted (the words echo, text, back and their key)
    expect(JSON.parse(shown.out)).toEqual([{ tool: "fault__echo", words: [], pending: 4 }]);
  });

  it("keeps nothing with --no-learning", async () => {
    const config = await configWith(undefined);
    const state = await mkdtemp(path.join(tmpdir(), "toolsift-state-"));
    await searchThenCall(config, state, ["--no-learning"]);
    // the gateway has exited with its client: anything it would keep is written by now
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(path.join(state, "toolsift"))).toBe(false);
  });
});
