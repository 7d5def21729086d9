import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// a file of the checkout: settled long ago, so its stamps are saved beside the entry
const catalog = path.join(root, "test/fixtures/catalogs/example-tools.json");

/** `toolsift search` in a child process; its exit code and output. */
function searchProcess(cache: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(root, "node_modules/.bin/tsx"),
      [
        path.join(root, "src/cli/main.ts"),
        "search",
        "create an issue",
        "--catalog",
        catalog,
        "--cache",
        cache,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("the catalog cache with two processes at once", () => {
  it("both answer alike, leave one entry and one stamp map, and both then read them", async () => {
    const cache = path.join(mkdtempSync(path.join(tmpdir(), "toolsift-two-")), "cache");
    const first = await Promise.all([searchProcess(cache), searchProcess(cache)]);
    expect(first.map((run) => [run.code, run.err])).toEqual([
      [0, ""],
      [0, ""],
    ]);
    expect(first[1]?.out).toBe(first[0]?.out);
    const files = readdirSync(cache).sort();
    expect(files.map((name) => name.replace(/-[0-9a-f]+\.bin$/, ""))).toEqual([
      "catalog",
      "stamps",
    ]);
    const inodes = files.map((name) => statSync(path.join(cache, name)).ino);
    const second = await Promise.all([searchProcess(cache), searchProcess(cache)]);
    expect(second.map((run) => run.out)).toEqual([first[0]?.out, first[0]?.out]);
    // read, not rewritten: a write renames a new file (a new inode) into place
    expect(readdirSync(cache).sort()).toEqual(files);
    expect(files.map((name) => statSync(path.join(cache, name)).ino)).toEqual(inodes);
  }, 120_000);
});
