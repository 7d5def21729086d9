/** The Chromium the browser tests drive: Debian's, headless, in a fresh profile. */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium, or the browser TOOLSIFT_CHROMIUM names. */
export const CHROMIUM = process.env.TOOLSIFT_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Whether a browser test file can run: every path it needs exists. On a developer's machine a
 * missing one skips the file with a message; under CI (CI set, as `.ci/run` does) it throws, so
 * the file fails instead of passing green with its browser tests skipped.
 */
export function browserTestsCanRun(label: string, needs: readonly string[]): boolean {
  const missing = needs.filter((need) => !existsSync(need));
  if (missing.length === 0) return true;
  const message = `${label}: needs ${missing.join(" and ")} (apt-get install chromium, or set TOOLSIFT_CHROMIUM; the catalogs sit in ../shared)`;
  if (process.env.CI && process.env.CI !== "false")
    throw new Error(`${message}. CI is set, so this fails.`);
  console.warn(`${message}; skipped.`);
  return false;
}

/** Starts Chromium with a laptop-sized window; `close` also removes its profile directory. */
export async function launchChromium(): Promise<{
  browser: BrowserContext;
  page: Page;
  close(): Promise<void>;
}> {
  const profileDir = mkdtempSync(path.join(tmpdir(), "toolsift-chromium-"));
  // a fresh --user-data-dir: playwright passes it for a persistent context
  const browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1366, height: 900 },
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  return {
    browser,
    page,
    close: async () => {
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
