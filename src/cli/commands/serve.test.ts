import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectCliGateway } from "../../../test/cli-gateway.js";
import { capture } from "../__tests__/capture.js";
import { runCli } from "../run-cli.js";
import { resolveToken, serveUsage } from "./serve.js";

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
    // stdout carries only the protocol: a stray line there would break this connection
    const { client, stderr, announced } = await connectCliGateway(config, ["--inspect"], {
      name: "desktop-app",
      version: "3",
    });
    try {
      await expect.poll(announced, { timeout: 30_000 }).toBe(true);
      await expect.poll(stderr, { timeout: 20_000 }).toMatch(/inspector: .* at http:/);
      const url = /sessions of this gateway at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr())?.[1];
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
    const url = /sessions of this gateway at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr())?.[1];
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

  it("answers an 11 MB request with an error naming the limit, and the session goes on", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-serve-big-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { fault: { command: "node", args: [faultServer] } } }),
    );
    // --no-warm-up: a gateway that will take two calls need not warm the SDK's checks
    const { client, announced } = await connectCliGateway(config, [
      "--mode",
      "direct",
      "--no-warm-up",
    ]);
    try {
      await expect.poll(announced, { timeout: 30_000 }).toBe(true);
      // the SDK's reader closed the whole stdio session on a message over 10 MB
      await expect(
        client.callTool({ name: "fault__echo", arguments: { text: "x".repeat(11 * 2 ** 20) } }),
      ).rejects.toThrow(/The request was 11\.0 MB, over the 10\.0 MB .*session stays open/);
      const small = await client.callTool({ name: "fault__echo", arguments: { text: "hi" } });
      expect(small.structuredContent).toEqual({ echoed: "hi" });
    } finally {
      await client.close();
    }
  });

  it("refuses a bad --inspect-port, naming the flag", async () => {
    const io = capture();
    expect(await runCli(["serve", "--config", "x.json", "--inspect-port", "99999"], io)).toBe(2);
    expect(io.err).toContain("--inspect-port must be a whole number");
  });
});

/** A config whose one server would leave a marker file if it were ever started. */
async function markerConfig() {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-serve-check-"));
  const marker = path.join(dir, "started");
  const config = path.join(dir, "gateway.json");
  const script = `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`;
  await writeFile(
    config,
    JSON.stringify({ servers: { probe: { command: "node", args: ["-e", script] } } }),
  );
  return { dir, config, marker };
}

describe("toolsift serve checks before starting any upstream", () => {
  it("refuses an unreachable --state store and a non-Redis URL before any upstream starts", async () => {
    const { config, marker } = await markerConfig();
    const io = capture();
    const args = ["serve", "--config", config, "--http", "127.0.0.1:0", "--state"];
    expect(await runCli([...args, "redis://127.0.0.1:1"], io)).not.toBe(0);
    expect(io.err).toMatch(/session store redis:\/\/127\.0\.0\.1:1\/? is unreachable/);
    expect(await runCli([...args, "http://x"], io)).not.toBe(0);
    expect(io.err).toMatch(/not a Redis URL; use redis:\/\/HOST:PORT/);
    expect(io.err).not.toMatch(/\n\s+at /);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a bad --max-subscriptions before any upstream starts, and documents it", async () => {
    const { config, marker } = await markerConfig();
    const io = capture();
    expect(await runCli(["serve", "--config", config, "--max-subscriptions", "0"], io)).toBe(2);
    expect(io.err).toContain("--max-subscriptions must be a whole number");
    expect(existsSync(marker)).toBe(false);
    expect(serveUsage).toContain("--max-subscriptions (default 1000");
  });

  it("says a port is in use and how to fix it, without a stack trace", async () => {
    const { config, marker } = await markerConfig();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const io = capture();
      expect(
        await runCli(["serve", "--config", config, "--http", `127.0.0.1:${port}`], io),
      ).not.toBe(0);
      expect(io.err).toMatch(new RegExp(`127\\.0\\.0\\.1:${port} is in use`));
      expect(io.err).toMatch(/--http/);
      expect(io.err).not.toMatch(/\n\s+at /);
      expect(existsSync(marker)).toBe(false);
    } finally {
      busy.close();
    }
  });

  it("refuses --auth-* problems before starting: no --http, no audience, a token too, an issuer that does not answer", async () => {
    const { config, marker } = await markerConfig();
    const run = async (...args: string[]) => {
      const io = capture();
      const code = await runCli(["serve", "--config", config, ...args], io);
      return { code, err: io.err };
    };
    const issuer = ["--auth-issuer", "http://127.0.0.1:9", "--auth-audience", "aud"];
    expect(await run(...issuer)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--auth-issuer protects the HTTP gateway; add --http/),
    });
    expect(await run("--http", "0", "--auth-issuer", "http://127.0.0.1:9")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/needs --auth-audience AUD/),
    });
    expect(await run("--http", "0", "--auth-scopes", "a")).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--auth-scopes needs --auth-issuer URL/),
    });
    expect(await run("--http", "0", "--token", "t", ...issuer)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/one of a shared token .* and an identity provider/),
    });
    expect(
      await run("--http", "0", "--auth-issuer", "http://idp.example", "--auth-audience", "a"),
    ).toMatchObject({ code: 2, err: expect.stringMatching(/must use https/) });
    const unreachable = await run("--http", "0", ...issuer);
    expect(unreachable.code).not.toBe(0);
    expect(unreachable.err).toMatch(
      /Cannot read the identity provider's metadata for http:\/\/127\.0\.0\.1:9/,
    );
    // an identity provider, like a token, lets the gateway listen beyond loopback
    const remote = await run("--http", "0.0.0.0:0", ...issuer);
    expect(remote.err).not.toMatch(/exposes every upstream tool/);
    expect(remote.err).toMatch(/Cannot read the identity provider's metadata/);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a non-loopback host without a token, and a bad token file, before starting", async () => {
    const { dir, config, marker } = await markerConfig();
    const io = capture();
    expect(await runCli(["serve", "--config", config, "--http", "0.0.0.0:0"], io)).toBe(2);
    expect(io.err).toMatch(/token/);
    const empty = path.join(dir, "token");
    await writeFile(empty, "\n");
    const io2 = capture();
    expect(
      await runCli(["serve", "--config", config, "--http", "0:0", "--token-file", empty], io2),
    ).toBe(2);
    expect(io2.err).toMatch(/--token-file .* is empty/);
    const io3 = capture();
    expect(
      await runCli(["serve", "--config", path.join(dir, "missing.json"), "--http", "0"], io3),
    ).toBe(2);
    expect(io3.err).toMatch(/cannot read it/);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("toolsift serve tokens", () => {
  it("reads --token-file and TOOLSIFT_TOKEN, refuses both flags at once, and warns in --help", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-token-"));
    const file = path.join(dir, "token");
    await writeFile(file, "from-file\n");
    expect(await resolveToken({ "token-file": file }, {})).toBe("from-file");
    expect(await resolveToken({}, { TOOLSIFT_TOKEN: "from-env" })).toBe("from-env");
    expect(await resolveToken({ token: "flag" }, { TOOLSIFT_TOKEN: "from-env" })).toBe("flag");
    expect(await resolveToken({}, {})).toBeUndefined();
    await expect(resolveToken({ token: "a", "token-file": file }, {})).rejects.toThrow(
      /one of --token and --token-file/,
    );
    expect(serveUsage).toMatch(/--token-file F/);
    expect(serveUsage).toMatch(/TOOLSIFT_TOKEN/);
    expect(serveUsage).toMatch(/visible to other local users/);
  });
});
