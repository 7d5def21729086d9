import { describe, expect, it } from "vitest";
import { createToolSift } from "../../create-toolsift.js";
import { connectServers } from "../connect-servers.js";
import { upstreamErrorText } from "./upstream-errors.js";

// what connectV1 raises for a stdio server that exits while starting (`exitedAtStart`)
const exited = (stderr: string[]) =>
  Object.assign(new Error("the server's process exited while starting"), {
    code: "exited_at_start",
    stderr,
  });

describe("upstreamErrorText", () => {
  it("names the config's secrets instead of quoting them when a server echoes its key", () => {
    const key = "sk-live-0123456789abcdef";
    const config = {
      command: "node",
      args: ["server.js"],
      env: { OPENAI_API_KEY: key, LOG_LEVEL: "verbose-mode", DEBUG: "1" },
    };
    const text = upstreamErrorText(
      "ai",
      config,
      exited([`Error: invalid API key ${key}`]),
      "start",
    );
    expect(text).not.toContain(key);
    expect(text).toContain("invalid API key [OPENAI_API_KEY]");
    // values whose names say nothing secret stay readable
    const plain = upstreamErrorText("ai", config, exited(["Error: bad verbose-mode"]), "start");
    expect(plain).toContain("bad verbose-mode");
  });

  it("names an HTTP server's header credentials, the Bearer scheme aside", () => {
    const token = "ghp_abcdefghijklmnopqrstuvwxyz";
    const config = {
      url: "https://example.com/mcp",
      headers: { Authorization: `Bearer ${token}` },
    };
    const text = upstreamErrorText("gh", config, new Error(`rejected token ${token}`), "a call");
    expect(text).not.toContain(token);
    expect(text).toContain("rejected token [Authorization]");
  });
});

describe("connectServers' log", () => {
  it("carries a server's stderr with its config's secrets named, at every level", async () => {
    const key = "sk-live-SECRET12345";
    const lines: string[] = [];
    const upstreams = await connectServers(createToolSift({ tools: [] }), {
      servers: {
        echoer: {
          command: process.execPath,
          args: [
            "-e",
            "console.error('Error: invalid API key ' + process.env.MY_API_KEY); process.exit(1)",
          ],
          env: { MY_API_KEY: key },
        },
      },
      log: (entry) => lines.push(entry.message),
    });
    await upstreams.close();
    // the raw stderr line (debug) and the start error (warn) both arrived, neither with the key
    expect(lines.filter((line) => line.includes("invalid API key [MY_API_KEY]")).length).toBe(2);
    expect(lines.join("\n")).not.toContain(key);
    expect(JSON.stringify(upstreams.status())).not.toContain(key);
  });
});
