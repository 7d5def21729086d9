// The React example page in a real browser: examples/react-page-browser.ts bundled with esbuild,
// opened in Debian's Chromium through playwright-core, searched and switched to another profile;
// the screenshot is kept in test-output/react-page.png. Skipped (with a note) when no Chromium
// is installed, and failed when CI is set: set TOOLSIFT_CHROMIUM to its path, or
// `apt-get install chromium`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loadExampleTools } from "../../examples/react-page-server.js";
import { browserTestsCanRun, CHROMIUM } from "../inspector/launch-chromium.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const browserPath = CHROMIUM;
const hasBrowser = browserTestsCanRun("react-page-chromium", [browserPath]);

describe.skipIf(!hasBrowser)("examples/react-page-browser.ts in Chromium", () => {
  it("renders the real catalogs, searches and switches profile", async () => {
    const work = mkdtempSync(path.join(tmpdir(), "toolsift-page-"));
    const browser = await chromium.launch({
      executablePath: browserPath,
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const bundle = await build({
        entryPoints: [path.join(root, "examples/react-page-browser.ts")],
        bundle: true,
        format: "iife",
        platform: "browser",
        define: { "process.env.NODE_ENV": '"production"' },
        write: false,
        logLevel: "silent",
      });
      const script = bundle.outputFiles[0]?.text ?? "";
      // JSON inside <script> must not close the element early
      const tools = JSON.stringify(await loadExampleTools()).replaceAll("<", "\\u003c");
      const html = `<!doctype html><html><head><meta charset="utf-8"><title>toolsift</title></head><body><div id="root"></div><script id="tools" type="application/json">${tools}</script><script src="page.js"></script></body></html>`;
      writeFileSync(path.join(work, "page.js"), script);
      writeFileSync(path.join(work, "index.html"), html);

      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      await page.goto(`file://${path.join(work, "index.html")}`);
      await page.getByText("toolsift — 1371 tools").waitFor({ timeout: 20_000 });
      const hits = page.getByRole("region", { name: "search" }).getByRole("listitem");
      expect(await hits.first().textContent()).toMatch(/create_pull_request/);

      await page.getByLabel("query").fill("take a screenshot of the page");
      await expect.poll(() => hits.first().textContent()).toMatch(/screenshot/);
      const plan = page.getByTestId("plan");
      const before = await plan.textContent();
      await page.getByLabel("profile").selectOption("minimal");
      await expect.poll(() => plan.textContent()).not.toBe(before);

      mkdirSync(path.join(root, "test-output"), { recursive: true });
      await page.screenshot({
        path: path.join(root, "test-output/react-page.png"),
        fullPage: true,
      });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
