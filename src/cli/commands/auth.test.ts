import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { followToLoopback } from "../../../test/fixtures/mcp/follow-to-loopback.js";
import { startOAuthTestServer } from "../../../test/fixtures/mcp/oauth-test-server.js";
import { capture } from "../__tests__/capture.js";
import { runCli } from "../run-cli.js";

const cleanup: (() => Promise<unknown>)[] = [];
const savedXdg = process.env.XDG_CONFIG_HOME;
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
});

describe("toolsift auth", () => {
  it("status says so when the config has no HTTP server, instead of printing nothing", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-auth-cli-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ servers: { local: { command: "node", args: ["-e", ""] } } }),
    );
    const io = capture();
    expect(await runCli(["auth", "status", "--config", config], io)).toBe(0);
    expect(io.out).toBe(
      `No HTTP servers in ${config}: logins are for servers with a "url" (stdio servers start with their own "env").\n`,
    );
  });

  it("logs in with --no-browser (a test follows the printed address), lists the login, logs out", async () => {
    const server = await startOAuthTestServer();
    cleanup.push(() => server.close());
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-auth-cli-"));
    // the token store goes under XDG_CONFIG_HOME
    process.env.XDG_CONFIG_HOME = dir;
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({
        servers: {
          remote: {
            url: server.url,
            auth: { clientId: server.clientId, clientSecret: server.clientSecret },
          },
          local: { command: "node", args: ["-e", ""] },
          off: { url: server.url, auth: false },
        },
      }),
    );

    const before = capture();
    expect(await runCli(["auth", "status", "--config", config], before)).toBe(0);
    expect(before.out).toMatch(/remote\s+no login/);
    expect(before.out).toMatch(/off\s+OAuth off/);
    expect(before.out).not.toContain("local");

    const login = capture();
    const running = runCli(["auth", "login", "remote", "--config", config, "--no-browser"], login);
    // stand in for the user: open the printed address
    for (let attempt = 0; attempt < 400 && !login.err.includes("http"); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const address = login.err.match(/https?:\/\/\S+/)?.[0];
    expect(address).toBeDefined();
    await followToLoopback(new URL(address as string));
    expect(await running).toBe(0);
    expect(login.out).toMatch(/^Logged in to remote \(1 tools, token valid until .* UTC\)\.\n$/);

    const after = capture();
    await runCli(["auth", "status", "--config", config], after);
    expect(after.out).toMatch(/remote\s+logged in, access token until .* UTC, refreshable/);

    const out = capture();
    await runCli(["auth", "logout", "remote", "--config", config], out);
    expect(out.out).toBe("Logged out of remote.\n");
    const gone = capture();
    await runCli(["auth", "status", "--config", config], gone);
    expect(gone.out).toMatch(/remote\s+no login/);

    const everything = [before, login, after, out, gone].map((io) => io.out + io.err).join("");
    const leaks = [...server.issued, server.clientSecret].filter((secret) =>
      everything.includes(secret),
    );
    expect(leaks).toEqual([]);
  }, 60_000);

  it("names the HTTP servers when SERVER is unknown", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-auth-cli-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ servers: { remote: { url: "http://127.0.0.1:9/mcp" } } }),
    );
    const io = capture();
    expect(await runCli(["auth", "login", "nope", "--config", config], io)).toBe(2);
    expect(io.err).toContain('No HTTP server "nope"');
    expect(io.err).toContain("HTTP servers: remote");
  });
});
