/**
 * The inspector's Sessions view in real Chromium, attached to a live gateway started the way a
 * user does it (`toolsift inspect --config FILE`), with two real catalogs served by
 * test/fixtures/mcp/catalog-server.mjs. MCP SDK clients search, reveal and call tools (one call is
 * repaired, one fails, one is cut by the result budget); the page must show them live, filter
 * them, and show a banner once the gateway is stopped. Screenshots go to test-output/inspector/.
 * Skipped, with a message, when Chromium or the shared catalogs are absent (failed when CI is set).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { capture } from "../../src/cli/__tests__/capture.js";
import { inspectCommand } from "../../src/cli/commands/inspect.js";
import { sharedDir } from "../shared-dir.js";
import { browserTestsCanRun, CHROMIUM, launchChromium } from "./launch-chromium.js";
import { seriousViolations, shoot } from "./look.js";

const catalogs = path.join(sharedDir(), "catalogs");
const ready = browserTestsCanRun("inspector sessions browser tests", [CHROMIUM, catalogs]);
const catalogServer = path.resolve("test/fixtures/mcp/catalog-server.mjs");

let closeBrowser: (() => Promise<void>) | undefined;
let page: Page;
let dir: string;
let url: string;
let running: Promise<number>;
const stop = new AbortController();
const clients: Client[] = [];

async function connect(name: string): Promise<Client> {
  const client = new Client({ name, version: "1.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}mcp`)));
  clients.push(client);
  return client;
}

const timeline = () => page.locator("#timeline").textContent();

describe.runIf(ready)("the Sessions view in Chromium, attached to a live gateway", () => {
  beforeAll(async () => {
    mkdirSync(path.resolve("test-output/inspector"), { recursive: true });
    dir = mkdtempSync(path.join(tmpdir(), "toolsift-sessions-"));
    const server = (file: string) => ({
      command: process.execPath,
      args: [catalogServer, path.join(catalogs, file)],
    });
    const config = path.join(dir, "gateway.json");
    writeFileSync(
      config,
      JSON.stringify({
        servers: {
          filesystem: server("server-filesystem.json"),
          memory: server("server-memory.json"),
        },
        // small, so the echo of a long argument is cut by the result budget
        budget: { perToolResult: 80 },
      }),
    );
    const io = capture();
    running = inspectCommand(["--config", config], io, stop.signal);
    await vi.waitFor(() => expect(io.err).toMatch(/connect to http:.*\/mcp/), {
      timeout: 60_000,
      interval: 100,
    });
    url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(io.err)?.[1] ?? "";
    const client = await connect("first-agent");
    await client.callTool({ name: "tool_search", arguments: { query: "read text file" } });
    const call = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name: "tool_call", arguments: { name, arguments: args } });
    await call("filesystem__read_text_file", { path: "/etc/hostname", head: "5" });
    await call("filesystem__create_directory", {});
    await call("filesystem__write_file", { path: "/tmp/big.txt", content: "word ".repeat(400) });

    ({ page, close: closeBrowser } = await launchChromium());
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await closeBrowser?.();
    stop.abort();
    await running;
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it("shows the session's search, calls, repair, error, cut result and latency", async () => {
    const failed: string[] = [];
    page.on("pageerror", (error) => failed.push(error.message));
    await page.goto(url);
    await page.click("#tab-sessions");
    await expect.poll(timeline).toContain("read text file");
    expect(await page.textContent("#sessions-summary")).toContain(`${url}mcp`);
    expect(await page.locator("#sessions-servers tr").count()).toBe(3);
    const events = page.locator(".timeline > li");
    expect(await events.count()).toBe(4);
    // newest first: the cut result, the failure, the repaired call, the search
    expect(await events.nth(0).textContent()).toMatch(
      /CALL\s*filesystem__write_file on filesystem \(through tool_call\) — OK — RESULT CUT/,
    );
    expect(await events.nth(0).textContent()).toMatch(
      /cut from [\d,]+ tokens to the 80-token limit/,
    );
    expect(await events.nth(1).textContent()).toContain("ERROR invalid_arguments");
    expect(await events.nth(1).textContent()).toContain("must have required property 'path'");
    expect(await events.nth(2).textContent()).toMatch(/— 1 repair —.*head.*read as/s);
    expect(await events.nth(3).textContent()).toMatch(/SEARCH\s*tool_search "read text file"/);
    expect(await events.nth(3).textContent()).toContain("filesystem__read_text_file");
    expect(await events.nth(0).textContent()).toMatch(/\d+(\.\d)? ms/);
    // per server: its calls, an error-rate badge in words and a latency sparkline
    const filesystem = page.locator("#sessions-servers tbody tr", { hasText: "filesystem" });
    expect(await filesystem.locator(".badge").textContent()).toBe("33% errors (1 of 3)");
    expect(await filesystem.locator("svg.sparkline").getAttribute("aria-label")).toMatch(
      /^latency of the last 3 calls: [\d,.]+ to [\d,.]+ ms$/,
    );
    const memory = page.locator("#sessions-servers tbody tr", { hasText: "memory" });
    expect(await memory.textContent()).toContain("no calls");
    // arguments folded by default; as the client sent them (the repair line says what dispatch
    // read them as)
    expect(await events.nth(2).locator("details.arguments").getAttribute("open")).toBeNull();
    await events.nth(2).locator("summary").click();
    await expect.poll(() => events.nth(2).locator("pre").textContent()).toContain('"head": "5"');
    // the gateway kept the 2,000-character argument as cut text: cut again here, whole on demand
    await events.nth(0).locator("summary").click();
    const big = events.nth(0).locator("pre");
    const cut = ((await big.textContent()) ?? "").length;
    await events.nth(0).locator("button.link").click();
    await expect.poll(async () => ((await big.textContent()) ?? "").length).toBeGreaterThan(cut);
    await shoot(page, "sessions");
    expect(await seriousViolations(page)).toEqual([]);
    expect(failed).toEqual([]);
  }, 180_000);

  it("shows a second client live, and filters by server and by session (keyboard too)", async () => {
    const second = await connect("second-agent");
    await second.callTool({ name: "tool_search", arguments: { query: "create entities" } });
    await second.callTool({
      name: "tool_call",
      arguments: {
        name: "memory__create_entities",
        arguments: {
          entities: [{ name: "ada", entityType: "person", observations: ["notes ".repeat(50)] }],
        },
      },
    });
    // no reload: the page polls
    await expect.poll(timeline, { timeout: 10_000 }).toContain("memory__create_entities");
    expect(await page.locator(".session-list button").count()).toBe(2);
    // the search's found list names the tool too: wait for the call itself
    await expect.poll(() => page.locator(".timeline > li").count(), { timeout: 10_000 }).toBe(6);

    await page.selectOption("#server-filter", "memory");
    await expect.poll(() => page.locator(".timeline > li").count()).toBe(2);
    expect(await timeline()).not.toContain("filesystem__");
    expect(await page.textContent("#timeline-summary")).toContain("of server memory");
    await page.selectOption("#server-filter", "");

    // a session is chosen from the list with the keyboard
    const first = page.locator(".session-list button", { hasText: "first-agent" });
    await first.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".timeline > li").count()).toBe(4);
    expect(await timeline()).not.toContain("memory__create_entities");
    expect(await first.getAttribute("aria-pressed")).toBe("true");
    expect(await page.inputValue("#session-filter")).not.toBe("");
    // a long value (300 characters) is cut to 160 with the rest counted, and shown whole on demand
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".timeline > li").count()).toBe(6);
    const entities = page.locator(".timeline > li", { hasText: "memory__create_entities" });
    await entities.locator("summary").click();
    expect(await entities.locator("pre").textContent()).toContain("… (140 more characters)");
    await entities.locator("button.link", { hasText: "Show 1 long value whole" }).click();
    await expect
      .poll(() => entities.locator("pre").textContent())
      .toContain("notes ".repeat(50).trim());
    await first.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".timeline > li").count()).toBe(4);
    await shoot(page, "sessions-filtered");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".timeline > li").count()).toBe(6);
  }, 180_000);

  it("shows a banner, not a blank page, once the gateway is stopped", async () => {
    expect(await page.isVisible("#connection")).toBe(false);
    for (const client of clients.splice(0)) await client.close();
    stop.abort();
    expect(await running).toBe(0);
    await expect.poll(() => page.isVisible("#connection"), { timeout: 10_000 }).toBe(true);
    expect(await page.textContent("#connection")).toContain("stopped answering");
    // what was recorded stays readable under the banner
    expect(await page.locator(".timeline > li").count()).toBe(6);
    await shoot(page, "sessions-gateway-gone");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
