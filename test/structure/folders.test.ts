// docs/architecture.md's folder table is what a newcomer reads first: it must list exactly the
// folders of src/ (a new folder needs a row; a removed one loses its row).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");
const src = path.join(root, "src");

/** Every folder under src/, as a path relative to it; `__fixtures__` and the like are test data. */
function sourceFolders(dir = src): string[] {
  const folders: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith("__")) continue;
    const full = path.join(dir, entry.name);
    folders.push(path.relative(src, full).split(path.sep).join("/"), ...sourceFolders(full));
  }
  return folders.sort();
}

/** The folder column of the table under "## The folders of `src/`". */
function documentedFolders(): string[] {
  const text = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const section = text.split("## The folders of `src/`")[1]?.split("\n## ")[0] ?? "";
  return [...section.matchAll(/^\| `([^`]+)`\s*\|/gm)].map((match) => match[1] as string).sort();
}

describe("docs/architecture.md folder table", () => {
  it("lists exactly the folders of src/", () => {
    const documented = documentedFolders();
    expect(documented.length).toBeGreaterThan(0);
    const actual = sourceFolders();
    const missing = actual.filter((folder) => !documented.includes(folder));
    const stale = documented.filter((folder) => !actual.includes(folder));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it("no folder holds more than 20 source files directly", () => {
    const crowded = sourceFolders().filter((folder) => {
      const files = fs.readdirSync(path.join(src, folder), { withFileTypes: true });
      const sources = files.filter(
        (entry) =>
          entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name),
      );
      return sources.length > 20;
    });
    expect(crowded).toEqual([]);
  });
});
