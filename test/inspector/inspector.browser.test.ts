/**
 * The inspector in real Chromium (Debian's /usr/bin/chromium, driven by playwright-core) on the
 * real catalogs. Every view is shot at 1280×800 and 1920×1080, light and dark, into
 * test-output/inspector/ (gitignored), and audited with axe-core. Skipped, with a message, when
 * Chromium or the shared catalogs are absent, and failed when CI is set; `.ci/run` installs
 * Chromium.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTools } from "../../src/cli/load.js";
import { countDefinitionTokens } from "../../src/count-definition-tokens.js";
import { createToolSift } from "../../src/create-toolsift.js";
import type { ToolDefinition } from "../../src/index.js";
import {
  createInspectorModel,
  type InspectorServer,
  startInspectorServer,
} from "../../src/inspector/index.js";
import { sharedDir } from "../shared-dir.js";
import { browserTestsCanRun, CHROMIUM, launchChromium } from "./launch-chromium.js";
import { seriousViolations, shoot, shots } from "./look.js";

const catalogs = path.join(sharedDir(), "catalogs");
const ready = browserTestsCanRun("inspector browser tests", [CHROMIUM, catalogs]);

let closeBrowser: (() => Promise<void>) | undefined;
let server: InspectorServer;
let browser: BrowserContext;
let page: Page;
let tools: ToolDefinition[];
const failed: string[] = [];

const quiet = { stdout() {}, stderr() {} };
// a hang guard, not a speed claim: four screenshots and two axe audits per view take a while on a
// busy machine
const HANG_GUARD = 180_000;
const number = (text: string | null = "") => Number((text ?? "").replaceAll(",", ""));

describe.runIf(ready)("the inspector page in Chromium, on the 1,371-tool catalog", () => {
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    tools = await loadTools({ catalog: [catalogs] }, quiet);
    const model = createInspectorModel(tools);
    model.catalog();
    await model.cost();
    server = await startInspectorServer({ model });
    ({ page, browser, close: closeBrowser } = await launchChromium());
    await browser.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: server.url.slice(0, -1),
    });
    page.on("requestfailed", (request) => failed.push(`failed: ${request.url()}`));
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()}: ${response.url()}`);
    });
    page.on("pageerror", (error) => failed.push(error.message));
  }, 180_000);

  afterAll(async () => {
    await closeBrowser?.();
    await server?.close();
  }, HANG_GUARD);

  it(
    "opens on what the tools cost and what toolsift saves, per provider, in one chart",
    async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(server.url);
      await expect.poll(() => page.textContent("#headline")).toMatch(/toolsift's first turn sends/);
      // three bars per provider, four providers, after a legend of three
      await expect.poll(() => page.locator("#cost-chart svg > rect").count()).toBe(3 + 12);
      const chart = (await page.textContent("#cost-chart svg")) ?? "";
      // the one source: the figure `report` and the demo print for every tool loaded
      const sift = createToolSift({ tools });
      for (const provider of ["anthropic", "gemini"] as const) {
        const all = countDefinitionTokens(sift, { session: "t", provider, search: "client" }).all;
        expect(chart).toContain(`${all.toLocaleString("en")} tokens`);
      }
      expect(chart).toMatch(/\d+ tokens \(99\.\d% less\)/);
      // the disclosure reason in words, not the engine's "auto: … (ceiling 20000)"
      expect(await page.textContent("#disclosure-words")).toMatch(
        /^Search is on: the tools toolsift can hold back take [\d,]+ tokens, more than the 20,000/,
      );
      // servers by cost: one bar each under "full", where nothing is hidden (and a one-entry legend)
      expect(await page.locator("#catalog-chart svg > rect").count()).toBe(1 + 20);
      expect(await page.textContent("#catalog-chart svg")).not.toContain("hidden by the profile");
      const text = (await page.textContent("body")) ?? "";
      expect(text).not.toMatch(/\(s\)|\(es\)|auto: /);
      await shoot(page, "overview");
      expect(await seriousViolations(page)).toEqual([]);
      // the favicon and every module load: nothing answered 404
      expect(failed).toEqual([]);
    },
    HANG_GUARD,
  );

  it(
    "lists the catalog by server, the policy's reason said once per group of rows",
    async () => {
      await page.click("#tab-catalog");
      await expect
        .poll(() => page.textContent("#catalog-summary"))
        .toContain("1,371 tools on 20 servers");
      expect(await page.textContent("#catalog-summary")).toMatch(/; 1 meta tool\. Search is on/);
      await page.locator('details[data-server="server-memory"] summary').click();
      const table = page.locator('details[data-server="server-memory"] table');
      await expect.poll(() => table.locator("tbody tr").count()).toBeGreaterThan(5);
      // one reason for all nine tools: one group row, not the sentence on every row
      const groups = table.locator("tr.group");
      expect(await groups.count()).toBe(1);
      expect(await groups.first().textContent()).toMatch(/^Why \(9 tools\): /);
      expect(await table.locator("tbody tr").nth(1).textContent()).toMatch(
        /deferred.*profile:full · allow/,
      );
      await shoot(page, "catalog");
      expect(await seriousViolations(page)).toEqual([]);

      // a filtered server's heading counts the tokens of the tools shown, not the whole server's
      await page.fill("#catalog-filter", "create_issue");
      const github = page.locator('details[data-server="github-mcp-server"]');
      await expect.poll(() => github.locator("tbody tr:not(.group)").count()).toBeGreaterThan(0);
      const rows = await github.locator("tbody tr:not(.group) td.num").allTextContents();
      const shownTokens = rows.reduce((sum, cell) => sum + number(cell), 0);
      const heading = (await github.locator("summary").textContent()) ?? "";
      expect(heading).toContain(`· ${shownTokens.toLocaleString("en")} tokens (of `);
      expect(heading).toMatch(new RegExp(`^github-mcp-server ${rows.length} tools? of \\d+`));
      await shoot(page, "catalog-filtered");
      await page.fill("#catalog-filter", "");
    },
    HANG_GUARD,
  );

  it(
    "shows a hit's description and signature first, its factors folded, and what the model receives",
    async () => {
      await page.click("#tab-search");
      const pane = page.locator('.pane[data-pane="a"]');
      await expect.poll(() => pane.locator(".hit").count()).toBeGreaterThan(0);
      const hit = pane.locator(".hit").first();
      // description and signature come before the folded factor table
      const order = await hit.evaluate((node) =>
        [...node.children].map((child) => child.className || child.tagName.toLowerCase()),
      );
      expect(order).toEqual(["h3", "description", "signature", "fold factors"]);
      expect(await hit.locator("details.factors").getAttribute("open")).toBeNull();
      expect(await hit.locator("details.factors table").isVisible()).toBe(false);
      await hit.locator("details.factors summary").click();
      expect(await hit.locator("details.factors table").textContent()).toContain("issue");
      // the model's text, with a copy button that puts it on the clipboard
      const panel = pane.locator(".model-panel");
      expect(await panel.locator(".model-text").textContent()).toContain("create_issue");
      await panel.locator("button.copy").click();
      await expect.poll(() => panel.locator("button.copy").textContent()).toBe("Copied");
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(await panel.locator(".model-text").textContent());
      await shoot(page, "search");
      expect(await seriousViolations(page)).toEqual([]);

      const search = async (query: string) => {
        await pane.locator('input[type="search"]').fill(query);
        await pane.locator('button[type="submit"]').click();
        await expect.poll(() => pane.locator(".summary, .error").count()).toBeGreaterThan(0);
        await expect.poll(() => pane.locator(".results").textContent()).not.toContain("Searching");
      };
      await search("/^create_.*issue/");
      expect(await pane.locator(".summary").textContent()).toMatch(/^[1-9]\d* hits? for/);
      expect(await pane.locator(".hit h3").first().textContent()).toMatch(/create_.*issue/);
      await search("select:create_issue_note,read_graph");
      expect(await pane.locator(".hit h3").allTextContents()).toEqual([
        expect.stringContaining("create_issue_note"),
        expect.stringContaining("read_graph"),
      ]);
      await search("+branch server:github-mcp-server");
      expect(await pane.locator(".hit h3").first().textContent()).toContain("github-mcp-server");
      await search("/(unclosed/");
      expect(await pane.locator(".error").textContent()).toContain("Invalid regex");
      await page.check("#compare");
      const other = page.locator('.pane[data-pane="b"]');
      await expect.poll(() => other.locator(".hit").count()).toBeGreaterThan(0);
      await search("create a pull request");
      await shoot(page, "search-compare");
      expect(await seriousViolations(page)).toEqual([]);
    },
    HANG_GUARD,
  );

  it(
    "draws a second server bar only where the profile hides tools, with the difference",
    async () => {
      await page.click("#tab-overview");
      const anthropic = async () =>
        (
          await page.locator("#cost-table tbody tr").nth(0).locator("th, td").allTextContents()
        ).slice(0, 3);
      await expect.poll(() => page.locator("#cost-table tbody tr").count()).toBe(4);
      const before = await anthropic();
      expect(before[0]).toBe("Anthropic");
      await page.selectOption("#profile", "coding");
      await expect.poll(anthropic).not.toEqual(before);
      expect(number((await anthropic())[1])).toBeLessThan(number(before[1]));
      const chart = page.locator("#catalog-chart svg");
      await expect.poll(() => chart.textContent()).toContain("hidden by the profile");
      const split = (await chart.textContent())?.match(
        /visible \(−[\d,]+ hidden by the profile\)/g,
      );
      // a second bar for each server the profile cuts, not for all twenty
      expect(split?.length).toBeGreaterThan(0);
      expect(split?.length).toBeLessThan(20);
      expect(await chart.textContent()).toContain('visible under "coding"');
      await shoot(page, "overview-coding");
      expect(await seriousViolations(page)).toEqual([]);
      await page.click("#tab-catalog");
      await expect
        .poll(() => page.textContent("#catalog-summary"))
        .toMatch(/profile "coding".* [1-9][\d,]* hidden/);
    },
    HANG_GUARD,
  );

  it("moves between tabs with the keyboard and says no gateway is attached", async () => {
    await page.focus("#tab-overview");
    await page.keyboard.press("End");
    expect(await page.getAttribute("#tab-learned", "aria-selected")).toBe("true");
    // catalog files have no traffic to learn from: the view says how to turn learning on
    await expect.poll(() => page.textContent("#learned-summary")).toContain("Learning is off");
    await page.keyboard.press("ArrowLeft");
    expect(await page.getAttribute("#tab-sessions", "aria-selected")).toBe("true");
    await expect.poll(() => page.textContent("#sessions")).toContain("No gateway attached");
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await page.getAttribute("#tab-overview", "aria-selected")).toBe("true");
  });

  it(
    "lists the words search learned per tool and removes one",
    async () => {
      const sift = createToolSift({ tools: tools.slice(0, 40), learning: {} });
      const tool = tools[0] as ToolDefinition;
      // two requests share "ticket": a word counts apart once two requests used it
      for (const session of ["a", "b", "c"])
        for (const request of ["open a new ticket", "file a ticket"])
          sift.learning?.evidence.record(request, tool, session);
      const learnedServer = await startInspectorServer({
        model: createInspectorModel(tools.slice(0, 40), { learning: sift.learning }),
        learned: { learning: sift.learning, tool: (name) => sift.catalog.get(name) },
      });
      try {
        // the Search view shows the learned words that matched as their own field
        await page.goto(learnedServer.url);
        await page.click("#tab-search");
        const pane = page.locator('[data-pane="a"]');
        await pane.locator('input[type="search"]').fill("ticket");
        await pane.getByRole("button", { name: "Search" }).click();
        const matched = pane.locator(".hit", { hasText: tool.name }).locator(".learned-match");
        await expect.poll(() => matched.textContent()).toBe("learned: ticket");
        await page.goto(learnedServer.url);
        await page.click("#tab-learned");
        const tables = page.locator("#learned-tools");
        await expect.poll(() => tables.textContent()).toContain(tool.name);
        expect(await tables.textContent()).toContain("ticket");
        expect(await seriousViolations(page)).toEqual([]);
        await shoot(page, "learned");
        await page
          .getByRole("button", { name: `Remove the learned word “ticket” from ${tool.name}` })
          .click();
        await expect.poll(() => tables.textContent()).not.toContain("ticket");
        expect(await tables.textContent()).toContain("open");
      } finally {
        await learnedServer.close();
      }
    },
    HANG_GUARD,
  );
});
