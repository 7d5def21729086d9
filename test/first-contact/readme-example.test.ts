// The README's library example, run as written on the real catalogs (issue 10, "how it is
// proven"): only the package names become source paths and ../shared becomes this machine's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../shared-dir.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function libraryExample(): string {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## The library"));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("README has no ts block under ## The library");
  return block;
}

describe("the README's library example", () => {
  it("runs on ../shared/catalogs as written", () => {
    const code = libraryExample()
      .replace('from "toolsift/node"', `from ${JSON.stringify(path.join(root, "src/node.ts"))}`)
      .replace('from "toolsift"', `from ${JSON.stringify(path.join(root, "src/index.ts"))}`)
      .replace('"../shared/catalogs"', JSON.stringify(path.join(sharedDir(), "catalogs")));
    expect(code).toContain("loadCatalogPaths");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "toolsift-readme-")), "example.mts");
    writeFileSync(file, code);
    const output = execFileSync(path.join(root, "node_modules/.bin/tsx"), [file], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
    });
    // deferral is active, the search found the tool, the call ran through onCall, the policy hid
    // the delete tool
    expect(output).toMatch(/^auto: /m);
    expect(output).toContain("github-mcp-server/create_issue");
    expect(output).toMatch(/github-mcp-server would run create_issue/);
    expect(output).toMatch(/safety/);
  }, 120_000);
});
