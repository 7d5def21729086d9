import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import { InvalidToolError } from "../errors.js";
import { createCatalog } from "./create-catalog.js";
import { fingerprintTools } from "./fingerprint-tools.js";
import { loadCatalogFile, loadCatalogPaths } from "./node.js";

const catalogsDir = path.join(sharedDir(), "catalogs");
const benchDir = path.join(sharedDir(), "bench");
const benchFiles = readdirSync(benchDir)
  .map((name) => path.join(benchDir, name, "catalog.json"))
  .filter((file) => existsSync(file));

describe("the real catalogs in shared/", () => {
  it("loads each of the 20 MCP server files without a warning: 1,371 tools", async () => {
    const files = readdirSync(catalogsDir).filter((name) => name.endsWith(".json"));
    expect(files).toHaveLength(20);
    let total = 0;
    for (const name of files) {
      const { tools, warnings } = await loadCatalogFile(path.join(catalogsDir, name));
      expect(warnings).toEqual([]);
      expect(tools.every((tool) => tool.server === name.replace(/\.json$/, ""))).toBe(true);
      total += tools.length;
    }
    expect(total).toBe(1371);
  });

  it("as one directory: 26 names are shared by servers; qualify keeps all 1,371", async () => {
    const error = await loadCatalogPaths([catalogsDir], { duplicates: "error" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidToolError);
    const issues = (error as InvalidToolError).issues;
    expect(issues.every((issue) => issue.code === "duplicate_tool")).toBe(true);
    expect(new Set(issues.map((issue) => issue.tool)).size).toBe(26);
    const skipped = await loadCatalogPaths([catalogsDir], {
      onInvalid: "skip",
      duplicates: "error",
    });
    expect(skipped.tools.length + skipped.warnings.length).toBe(1371);
    const qualified = await loadCatalogPaths([catalogsDir]); // qualify is the default
    expect(qualified.tools).toHaveLength(1371);
    expect(qualified.renamed).toHaveLength(63);
    expect(qualified.tools.some((tool) => tool.name === "server-github/create_issue")).toBe(true);

    const catalog = createCatalog(qualified.tools);
    const started = performance.now();
    const cold = catalog.fingerprint();
    const coldMs = performance.now() - started;
    const again = performance.now();
    expect(catalog.fingerprint()).toBe(cold);
    const warmMs = performance.now() - again;
    expect(fingerprintTools([...qualified.tools].reverse())).toBe(cold);
    const first = catalog.list()[0]!;
    catalog.replace({ ...first, description: `${first.description} (edited)` });
    const changed = performance.now();
    expect(catalog.fingerprint()).not.toBe(cold);
    const changedMs = performance.now() - changed;
    console.log(
      `fingerprint of 1,371 tools: cold ${coldMs.toFixed(1)} ms, cached ${warmMs.toFixed(3)} ms, after one replace ${changedMs.toFixed(2)} ms`,
    );
    // the times are printed, not asserted: a loaded machine stretches any threshold
  });

  it.each(benchFiles)("loads bench %s (lenient names) with every tool kept", async (file) => {
    const raw = JSON.parse(readFileSync(file, "utf8")) as unknown[];
    const { tools, warnings } = await loadCatalogFile(file, { nameRule: "lenient" });
    expect(warnings).toEqual([]);
    expect(tools).toHaveLength(raw.length);
    // under the strict rule only names are at fault, and skip mode reports them
    const strict = await loadCatalogFile(file, { onInvalid: "skip" });
    expect(strict.warnings.every((issue) => issue.code === "name_invalid")).toBe(true);
    expect(strict.tools.length + strict.warnings.length).toBe(raw.length);
  });
});

describe("platform neutrality", () => {
  // node.ts and the files only it imports (the root entry reaching none of them is checked by
  // test/package/root-entry.test.ts)
  it("only the Node entry's files import node: modules", () => {
    const folder = path.dirname(new URL(import.meta.url).pathname);
    const offenders = readdirSync(folder)
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .filter((name) => !["node.ts", "load-catalog-file.ts", "file-kind.ts"].includes(name))
      .filter((name) => /from "node:/.test(readFileSync(path.join(folder, name), "utf8")));
    expect(offenders).toEqual([]);
  });
});
