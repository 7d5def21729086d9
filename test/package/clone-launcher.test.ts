// Issue 20 item 18: running toolsift from a clone, before and after `npm run build`.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("toolsift from a clone", () => {
  it("has an executable launcher as its bin, and the build script keeps main.js executable", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    expect(manifest.bin.toolsift).toBe("./bin/toolsift.mjs");
    expect(manifest.files).toContain("bin");
    const staged = execFileSync("git", ["ls-files", "-s", "bin/toolsift.mjs"], { cwd: root });
    expect(String(staged)).toMatch(/^100755 /);
    expect(manifest.scripts.build).toMatch(/chmodSync\('dist\/cli\/main\.js',0o755\)/);
  });

  it("before a build, says how to build instead of 'not found'", () => {
    const clone = mkdtempSync(path.join(tmpdir(), "toolsift-clone-"));
    mkdirSync(path.join(clone, "bin"));
    copyFileSync(path.join(root, "bin/toolsift.mjs"), path.join(clone, "bin/toolsift.mjs"));
    const run = spawnSync(process.execPath, [path.join(clone, "bin/toolsift.mjs"), "--help"], {
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/not built yet: run `npm install && npm run build`/);
  });
});
