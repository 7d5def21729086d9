/** Loads the 20 real MCP server catalogs from ../shared/catalogs. */
import path from "node:path";
import type { ToolDefinition } from "../src/catalog/index.js";
import { loadCatalogPaths } from "../src/catalog/node.js";
import { sharedDir } from "../test/shared-dir.js";

export async function loadRealCatalogs(): Promise<ToolDefinition[]> {
  const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    onInvalid: "throw",
    duplicates: "qualify",
  });
  return [...tools];
}
