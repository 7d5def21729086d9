/**
 * What the inspector's browser tests check on every view: screenshots at a laptop (1280×800) and
 * a desktop (1920×1080) size, light and dark, saved under test-output/inspector/ (gitignored) to
 * be looked at; and axe-core's audit, which must find no serious or critical violation.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";

export const shots = path.resolve("test-output/inspector");

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const SCHEMES = ["light", "dark"] as const;

/** Saves `name-WxH-scheme.png` for each size and scheme; leaves the page at 1280×800, light. */
export async function shoot(page: Page, name: string): Promise<string[]> {
  const files: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      const file = path.join(shots, `${name}-${size.width}x${size.height}-${colorScheme}.png`);
      // the top of the view: what a reader sees on opening it
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: file });
      files.push(file);
    }
  }
  await page.setViewportSize(SIZES[0]);
  await page.emulateMedia({ colorScheme: "light" });
  return files;
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now, in light and in dark, as
 * readable lines ("color-contrast (serious): … at #a, #b"). Injected through the DevTools
 * protocol, so the page's Content-Security-Policy (no inline script) does not block it.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
      return (await axe.run()).violations;
    });
    for (const violation of violations as AxeViolation[]) {
      if (violation.impact !== "serious" && violation.impact !== "critical") continue;
      const where = violation.nodes.map((node) => node.target.join(" ")).slice(0, 5);
      found.push(
        `${colorScheme}: ${violation.id} (${violation.impact}): ${violation.help} at ${where.join(", ")}`,
      );
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}
