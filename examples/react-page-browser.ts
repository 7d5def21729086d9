/**
 * The example page in a browser: reads its tools from the JSON in `<script id="tools">` and
 * mounts `ToolSiftPage` into `#root`. A browser has no synchronous `require`, so the o200k
 * encoding is loaded (`loadTokenCounter`) before the ToolSift counts anything. `test/e2e/react-page-chromium.test.ts` bundles this file
 * and opens it in Chromium.
 */
import { createElement as h } from "react";
import { createRoot } from "react-dom/client";
import { loadTokenCounter, type ToolDefinition } from "../src/index.js";
import { createPageSift, ToolSiftPage } from "./react-page.js";

declare const document: {
  getElementById(id: string): { textContent: string | null } | null;
};

async function main(): Promise<void> {
  await loadTokenCounter("o200k_base");
  const data = document.getElementById("tools")?.textContent ?? "[]";
  const sift = createPageSift(JSON.parse(data) as ToolDefinition[]);
  const root = document.getElementById("root");
  if (!root) throw new Error("react-page-browser: the page needs an element with id root.");
  createRoot(root as never).render(h(ToolSiftPage, { sift, session: "browser" }));
}

void main();
