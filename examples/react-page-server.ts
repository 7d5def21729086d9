/**
 * Renders the example page (`react-page.ts`) on the server from the 20 real catalogs and prints
 * the HTML: `npx tsx examples/react-page-server.ts`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { loadCatalogPaths } from "../src/catalog/node.js";
import type { ToolDefinition } from "../src/index.js";
import { sharedDir } from "../test/shared-dir.js";
import { createPageSift, ToolSiftPage } from "./react-page.js";

/** The real catalogs as the page's tools (server names qualify duplicate tool names). */
export async function loadExampleTools(): Promise<ToolDefinition[]> {
  const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    duplicates: "qualify",
  });
  return [...tools];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sift = createPageSift(await loadExampleTools());
  console.log(renderToString(h(ToolSiftPage, { sift, session: "example" })));
}
