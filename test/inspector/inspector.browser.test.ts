/**
 * The inspector in real Chromium (Debian's /usr/bin/chromium, driven by playwright-core) on the
 * real catalogs. Screenshots go to test-output/inspector/ (gitignored). Skipped, with a message,
 * when Chromium or the shared catalogs are absent, and failed when CI is set; `.ci/run` installs
 * Chromium.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTools } from "../../src/cli/load.js";
import {
  createInspectorModel,
  type InspectorServer,
  startInspectorServer,
} from "../../src/inspector/index.js";
import { sharedDir } from "../shared-dir.js";
import { browserTestsCanRun, CHROMIUM, launchChromium } from "./launch-chromium.js";

const catalogs = path.join(sharedDir(), "catalogs");
const ready = browserTestsCanRun("inspector browser tests", [CHROMIUM, catalogs]);
const shots = path.resolve("test-output/inspector");

let closeBrowser: (() => Promise<void>) | undefined;
let server: InspectorServer;
let page: Page;

const quiet = { stdout() {}, stderr() {} };

describe.runIf(ready)("the inspector page in Chromium, on the 1,371-tool catalog", () => {
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const model = createInspectorModel(await loadTools({ catalog: [catalogs] }, quiet));
    model.catalog();
    await model.cost();
    server = await startInspectorServer({ model });
    ({ page, close: closeBrowser } = await launchChromium());
  }, 120_000);

  afterAll(async () => {
    await closeBrowser?.();
    await server?.close();
  });

  it("loads the catalog view: counts, a bar per server, tools with their policy state", async () => {
    const failed: string[] = [];
    page.on("requestfailed", (request) => failed.push(request.url()));
    page.on("pageerror", (error) => failed.push(error.message));
    await page.goto(server.url);
    await expect
      .poll(() => page.textContent("#catalog-summary"))
      .toContain("1,371 tools on 20 servers");
    // two bars per server (all tools, visible under the profile) and a legend of two
    expect(await page.locator("#catalog-chart svg rect").count()).toBe(42);
    expect(await page.textContent("#catalog-chart svg")).toContain("ms-365-mcp-server");
    await page.locator('details[data-server="server-memory"] summary').click();
    const rows = page.locator('details[data-server="server-memory"] tr');
    // the table is filled on the details element's "toggle" event, which fires after the click
    await expect.poll(() => rows.count()).toBeGreaterThan(5);
    expect(await rows.nth(1).textContent()).toMatch(/deferred.*profile:full · allow/);
    await page.screenshot({ path: path.join(shots, "catalog.png"), fullPage: false });
    expect(failed).toEqual([]);
  });

  it("runs searches of every form with explanations and the model's text, and shows a rejected query", async () => {
    await page.click("#tab-search");
    const pane = page.locator('.pane[data-pane="a"]');
    await expect.poll(() => pane.locator(".hit").count()).toBeGreaterThan(0);
    expect(await pane.locator(".hit table").first().textContent()).toContain("issue");
    expect(await pane.locator(".model-text").textContent()).toContain("create_issue");
    const search = async (query: string) => {
      await pane.locator('input[type="search"]').fill(query);
      await pane.locator('button[type="submit"]').click();
      await expect.poll(() => pane.locator(".summary, .error").count()).toBeGreaterThan(0);
      await expect.poll(() => pane.locator(".results").textContent()).not.toContain("Searching");
    };
    await search("/^create_.*issue/");
    expect(await pane.locator(".summary").textContent()).toMatch(/^[1-9]\d* hit\(s\)/);
    expect(await pane.locator(".hit h3").first().textContent()).toMatch(/create_.*issue/);
    await search("select:create_issue_note,read_graph");
    expect(await pane.locator(".hit h3").allTextContents()).toEqual([
      expect.stringContaining("create_issue_note"),
      expect.stringContaining("read_graph"),
    ]);
    await search("+branch server:github-mcp-server");
    expect(await pane.locator(".hit h3").first().textContent()).toContain("[github-mcp-server]");
    await search("/(unclosed/");
    expect(await pane.locator(".error").textContent()).toContain("Invalid regex");
    await page.check("#compare");
    const other = page.locator('.pane[data-pane="b"]');
    await expect.poll(() => other.locator(".hit").count()).toBeGreaterThan(0);
    await search("create a pull request");
    await page.screenshot({ path: path.join(shots, "search.png"), fullPage: false });
  });

  it("charts the cost per provider and changes the numbers when the profile changes", async () => {
    await page.click("#tab-cost");
    await expect.poll(() => page.locator("#cost-table tr").count()).toBe(5);
    const anthropic = async () =>
      (await page.locator("#cost-table tr").nth(1).locator("td").allTextContents()).slice(0, 4);
    const before = await anthropic();
    expect(before[0]).toBe("Anthropic");
    expect(await page.locator("#cost-chart svg rect").count()).toBeGreaterThanOrEqual(12);
    await page.screenshot({ path: path.join(shots, "cost.png"), fullPage: false });
    await page.selectOption("#profile", "coding");
    await expect.poll(anthropic).not.toEqual(before);
    const after = await anthropic();
    const number = (text = "") => Number(text.replaceAll(",", ""));
    expect(number(after[1])).toBeLessThan(number(before[1]));
    await page.click("#tab-catalog");
    await expect
      .poll(() => page.textContent("#catalog-summary"))
      .toMatch(/profile "coding".* [1-9][\d,]* hidden/);
    expect(await page.textContent("#catalog-chart svg")).toContain('visible under "coding"');
    await page.screenshot({ path: path.join(shots, "catalog-coding.png"), fullPage: false });
  });

  it("moves between tabs with the keyboard and says no gateway is attached", async () => {
    await page.focus("#tab-catalog");
    await page.keyboard.press("End");
    expect(await page.getAttribute("#tab-sessions", "aria-selected")).toBe("true");
    await expect.poll(() => page.textContent("#sessions")).toContain("No gateway attached");
    await page.keyboard.press("ArrowRight");
    expect(await page.getAttribute("#tab-catalog", "aria-selected")).toBe("true");
  });
});
