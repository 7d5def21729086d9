/** The Chromium the inspector's browser tests drive: Debian's, headless, in a fresh profile. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

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
