// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs write ${VAR} in plain strings on purpose
import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "./gateway-config.js";
import { InvalidConfigError, loadGatewayConfig } from "./load-gateway-config.js";

const env = { HOME: "/home/u", TOKEN: "secret" };

describe("parseGatewayConfig", () => {
  it("reads toolsift's own format with per-server options", () => {
    const { config, problems } = parseGatewayConfig(
      {
        mode: "reveal",
        servers: {
          github: {
            command: "npx",
            args: ["-y", "server-github"],
            env: { GITHUB_TOKEN: "${TOKEN}" },
            defer: "always",
            neverDefer: ["create_issue"],
            profile: "coding",
            callTimeoutMs: 5000,
          },
          off: { command: "x", enabled: false },
        },
      },
      { env },
    );
    expect(problems).toEqual([]);
    expect(config.mode).toBe("reveal");
    expect(config.servers.github).toEqual({
      command: "npx",
      args: ["-y", "server-github"],
      env: { GITHUB_TOKEN: "secret" },
      defer: "always",
      neverDefer: ["create_issue"],
      profile: "coding",
      callTimeoutMs: 5000,
    });
    expect(config.servers.off?.enabled).toBe(false);
  });

  it("reads Claude Desktop / Claude Code mcpServers and VS Code servers as they are", () => {
    const claude = parseGatewayConfig(
      {
        mcpServers: {
          memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
          remote: {
            type: "http",
            url: "https://example.test/mcp",
            headers: { Authorization: "Bearer ${env:TOKEN}" },
          },
          legacy: { type: "sse", url: "http://127.0.0.1:9/sse", disabled: true },
        },
      },
      { env },
    );
    expect(claude.problems).toEqual([]);
    expect(claude.config.servers.remote).toEqual({
      url: "https://example.test/mcp",
      headers: { Authorization: "Bearer secret" },
      transport: "http",
    });
    expect(claude.config.servers.legacy).toMatchObject({ transport: "sse", enabled: false });
    const vscode = parseGatewayConfig(
      {
        servers: {
          fs: {
            type: "stdio",
            command: "node",
            args: ["${workspaceFolder}/server.js", "${MISSING:-/tmp}"],
          },
        },
      },
      { env, workspaceFolder: "/ws" },
    );
    expect(vscode.problems).toEqual([]);
    expect(vscode.config.servers.fs).toEqual({ command: "node", args: ["/ws/server.js", "/tmp"] });
  });

  it("refuses server names that would make SERVER__TOOL names ambiguous", () => {
    // tool "x__y" of server "gh" and tool "y" of server "gh__x" would both be gh__x__y, and the
    // one that listed first would take the name (a hostile server could shadow a trusted one)
    const { problems } = parseGatewayConfig(
      { servers: { gh: { command: "a" }, gh__x: { command: "a" }, gh_: { command: "a" } } },
      { env },
    );
    expect(problems).toEqual([
      'servers.gh__x: a server name must not contain "__" or end in "_": tools are named SERVER__TOOL, so another server\'s tool could be given the same name; rename it (e.g. "gh-x").',
      'servers.gh_: a server name must not contain "__" or end in "_": tools are named SERVER__TOOL, so another server\'s tool could be given the same name; rename it (e.g. "gh").',
    ]);
  });

  it("lists every problem with its path", () => {
    const { problems } = parseGatewayConfig(
      {
        mode: "fast",
        servers: {
          github: { command: 42 },
          both: { command: "a", url: "http://x" },
          none: { args: [] },
          env: { command: "a", env: { KEY: "${UNSET_VARIABLE}" }, callTimeoutMs: -1 },
          "bad name": { command: "a" },
          lazy: { command: "a", lazy: true },
        },
      },
      { env },
    );
    expect(problems).toEqual([
      "servers.github.command: expected a string, got a number.",
      'servers.github: needs "command" (a local server started over stdio) or "url" (a remote server).',
      'servers.both: has both "command" and "url"; keep "command" for a local server or "url" for a remote one.',
      'servers.none: needs "command" (a local server started over stdio) or "url" (a remote server).',
      "servers.env.callTimeoutMs: expected a positive whole number, got -1.",
      "servers.env.env.KEY: ${UNSET_VARIABLE} is not set in the environment; export UNSET_VARIABLE, or write ${UNSET_VARIABLE:-default}.",
      'servers.bad name: server names are 1–64 letters, digits, "_" or "-"; rename it.',
      'servers.lazy.lazy: a lazy server needs "catalog", the file of its tools; write one with "toolsift dump --config FILE".',
      'mode: expected one of "bridge", "reveal", "direct", got "fast".',
    ]);
  });
});

describe("the learning key", () => {
  const servers = { mem: { command: "node" } };
  const read = (learning: unknown) => parseGatewayConfig({ servers, learning }, { env });

  it("is on unless false, and names where a file goes", () => {
    expect(read(undefined)).toMatchObject({ problems: [] });
    expect(read(undefined).config.learning).toBeUndefined();
    expect(read(true).config.learning).toBeUndefined();
    expect(read(false).config.learning).toBe(false);
    expect(read({ file: "${HOME}/l.json" }).config.learning).toEqual({ file: "/home/u/l.json" });
  });

  it("names a wrong value and a mistyped key", () => {
    expect(read("off").problems).toEqual([
      'learning: expected true, false or an object like {"file": "learning.json"}, got a string.',
    ]);
    expect(read({ fiel: "x" }).problems).toEqual([
      'learning.fiel: unknown key; did you mean "file"?',
    ]);
  });

  it("resolves the file against the config's folder", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-config-"));
    const file = path.join(dir, "gateway.json");
    await writeFile(file, JSON.stringify({ servers, learning: { file: "state/l.json" } }));
    const config = await loadGatewayConfig(file, { env });
    expect(config.learning).toEqual({ file: path.join(dir, "state/l.json") });
  });
});

describe("loadGatewayConfig", () => {
  it("reads catalog files relative to the config and reports unreadable ones", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-config-"));
    await writeFile(
      path.join(dir, "mem.json"),
      JSON.stringify({ tools: [{ name: "read_graph", server: "mem" }] }),
    );
    await writeFile(
      path.join(dir, "gateway.json"),
      JSON.stringify({
        servers: {
          mem: { command: "node", cwd: "sub", lazy: true, catalog: "mem.json" },
          gone: { command: "node", lazy: true, catalog: "missing.json" },
        },
      }),
    );
    const error = await loadGatewayConfig(path.join(dir, "gateway.json"), { env }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(
      /^servers\.gone\.catalog: cannot read .*missing\.json .*toolsift dump/,
    );
    await writeFile(
      path.join(dir, "gateway.json"),
      JSON.stringify({
        servers: { mem: { command: "node", cwd: "sub", lazy: true, catalog: "mem.json" } },
      }),
    );
    const config = await loadGatewayConfig(path.join(dir, "gateway.json"), { env });
    expect(config.servers.mem).toMatchObject({
      cwd: path.join(dir, "sub"),
      tools: [{ name: "read_graph" }],
    });
  });

  it("names the line and column of a JSON syntax error", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-config-"));
    await writeFile(path.join(dir, "bad.json"), '{"servers": {\n  "a": {"command": "x",}\n}}');
    await expect(loadGatewayConfig(path.join(dir, "bad.json"))).rejects.toThrow(/line 2, column/);
  });
});

describe("loadGatewayConfig refuses catalog files that are not regular files", () => {
  it("names a FIFO and /dev/zero instead of hanging on or reading them", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-config-fifo-"));
    const fifo = path.join(dir, "tools.fifo");
    execFileSync("mkfifo", [fifo]);
    const file = path.join(dir, "gateway.json");
    await writeFile(
      file,
      JSON.stringify({
        servers: {
          piped: { command: "node", lazy: true, catalog: "tools.fifo" },
          zero: { command: "node", lazy: true, catalog: "/dev/zero" },
        },
      }),
    );
    const error = await loadGatewayConfig(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidConfigError);
    const problems = (error as InvalidConfigError).problems.join("\n");
    expect(problems).toMatch(/servers\.piped\.catalog: .*tools\.fifo is not a regular file/);
    expect(problems).toMatch(/servers\.zero\.catalog: .*\/dev\/zero is not a regular file/);
  });
});

describe("config key typos", () => {
  it("suggests the key that was meant for a server's and the top level's unknown keys", () => {
    const { problems } = parseGatewayConfig(
      { servers: { github: { comand: "npx", args: [] } }, mdoe: "bridge" },
      { env: {} },
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/servers\.github\.comand: unknown key; did you mean "command"\?/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/mdoe: unknown key; did you mean "mode"\?/),
    );
  });
});

describe("the gateway's own auth block", () => {
  it("reads issuer, audience, scopes and resource, expanding variables", () => {
    const { config, problems } = parseGatewayConfig(
      {
        servers: {},
        auth: {
          issuer: "https://login.example.com/",
          audience: "${AUD}",
          scopes: ["mcp:tools"],
          resource: "https://mcp.example.com/mcp",
        },
      },
      { env: { AUD: "https://mcp.example.com/mcp" } },
    );
    expect(problems).toEqual([]);
    expect(config.auth).toEqual({
      issuer: "https://login.example.com/",
      audience: "https://mcp.example.com/mcp",
      scopes: ["mcp:tools"],
      resource: "https://mcp.example.com/mcp",
    });
  });

  it("names a missing audience and a misspelt key", () => {
    const { problems } = parseGatewayConfig(
      { servers: {}, auth: { issuer: "https://login.example.com/", scope: ["a"] } },
      { env: {} },
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/auth\.scope: unknown key; did you mean "scopes"/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/auth: needs "issuer" .* and "audience"/),
    );
  });
});

describe("auth.profiles: a session's profile by its user's claims", () => {
  const auth = { issuer: "https://login.example.com/", audience: "aud" };

  it("reads the rules in order and the default profile", () => {
    const profiles = [
      { claim: "groups", value: "sre", profile: "full" },
      { claim: "realm_access.roles", value: "${ROLE}", profile: "coding" },
    ];
    const { config, problems } = parseGatewayConfig(
      { servers: {}, auth: { ...auth, profiles, defaultProfile: "minimal" } },
      { env: { ROLE: "developer" } },
    );
    expect(problems).toEqual([]);
    expect(config.auth?.profiles).toEqual([
      { claim: "groups", value: "sre", profile: "full" },
      { claim: "realm_access.roles", value: "developer", profile: "coding" },
    ]);
    expect(config.auth?.defaultProfile).toBe("minimal");
  });

  it("names every bad rule: a misspelt key or profile, a missing field, not a list", () => {
    const { problems } = parseGatewayConfig(
      {
        servers: {},
        auth: {
          ...auth,
          profiles: [
            { clam: "groups", value: "sre", profile: "full" },
            { claim: "groups", value: "dev", profile: "codng" },
            "admins",
          ],
          defaultProfile: "minimul",
          defaultProfiles: "x",
        },
      },
      { env: {} },
    );
    expect(problems).toEqual([
      'auth.defaultProfiles: unknown key; did you mean "defaultProfile"?',
      'auth.profiles[0].clam: unknown key; did you mean "claim"?',
      'auth.profiles[0]: needs "claim" (e.g. {"claim": "groups", "value": "sre", "profile": "full"}).',
      'auth.profiles[1].profile: unknown profile "codng"; did you mean "coding"? Known profiles: full, minimal, coding.',
      'auth.profiles[2]: expected an object with "claim", "value" and "profile", got a string.',
      'auth.defaultProfile: unknown profile "minimul"; did you mean "minimal"? Known profiles: full, minimal, coding.',
    ]);
    const { problems: notList } = parseGatewayConfig(
      { servers: {}, auth: { ...auth, profiles: { groups: "full" } } },
      { env: {} },
    );
    expect(notList).toEqual([
      'auth.profiles: expected a list of rules like {"claim": "groups", "value": "sre", "profile": "full"}, got an object.',
    ]);
  });
});

describe("examples/gateway.json", () => {
  it("loads without problems", async () => {
    const file = path.resolve(import.meta.dirname, "../../../examples/gateway.json");
    const config = await loadGatewayConfig(file, { env: { HOME: "/home/u" } });
    expect(Object.keys(config.servers)).toEqual(["everything", "memory", "filesystem"]);
    // without PROJECT_DIR the filesystem server serves the config's folder, not whatever folder
    // the client started the gateway in (Claude Desktop's is "/")
    expect(config.servers.filesystem).toMatchObject({
      args: ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "."],
      cwd: path.dirname(file),
    });
  });
});
