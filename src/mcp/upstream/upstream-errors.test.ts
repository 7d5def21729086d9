import { describe, expect, it } from "vitest";
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
