/**
 * The CLI bundle the bin runs (`scripts/bundle-cli.mjs`, issue 25): built into a temporary
 * folder laid out like the package, `search` and `rank` load a few bundle files and no Ajv,
 * tokenizer, regex engine, MCP SDK, gateway, inspector or provider chunk, and answer as the
 * source does.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const catalog = path.join(root, "test/fixtures/catalogs/example-tools.json");
const HEAVY =
  /node_modules\/(ajv|ajv-formats|gpt-tokenizer|re2js|@modelcontextprotocol|zod)\/|\/(serve|inspect|mcp|report|prepare|dump|auth|approve)-[A-Z0-9]+\.js$/;
let work = "";

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "toolsift-bundle-"));
  // the package's layout: package.json at the top, node_modules beside it, the bundle in dist/
  copyFileSync(path.join(root, "package.json"), path.join(work, "package.json"));
  symlinkSync(path.join(root, "node_modules"), path.join(work, "node_modules"), "dir");
  execFileSync(process.execPath, [
    path.join(root, "scripts/bundle-cli.mjs"),
    path.join(work, "dist/bundle"),
  ]);
  mkdirSync(path.join(work, "hooks"));
  writeFileSync(
    path.join(work, "hooks/list.mjs"),
    `import { appendFileSync } from "node:fs";
import { register } from "node:module";
register(import.meta.url);
export async function load(url, context, next) {
  if (process.env.LOADED_LIST) appendFileSync(process.env.LOADED_LIST, url + "\\n");
  return next(url, context);
}`,
  );
}, 120_000);

/** Runs the bundle with `args`; its stdout and the files it loaded, relative to the package. */
function runBundle(args: readonly string[]): { out: string; files: string[] } {
  const list = path.join(work, `loaded-${args[0]}.txt`);
  const out = execFileSync(
    process.execPath,
    [
      "--import",
      path.join(work, "hooks/list.mjs"),
      path.join(work, "dist/bundle/toolsift.js"),
      ...args,
    ],
    {
      encoding: "utf8",
      env: { ...process.env, LOADED_LIST: list, XDG_CACHE_HOME: path.join(work, "cache") },
    },
  );
  const urls = new Set(readFileSync(list, "utf8").split("\n"));
  const files = [...urls]
    .filter((url) => url.startsWith("file:") && !url.includes("/hooks/"))
    .map((url) => path.relative(work, fileURLToPath(url)));
  return { out, files };
}

describe("the CLI bundle", () => {
  it("search loads a few bundle files, none of the heavy modules, and answers as the source", () => {
    const { out, files } = runBundle(["search", "create an issue", "--catalog", catalog]);
    const source = execFileSync(
      path.join(root, "node_modules/.bin/tsx"),
      [path.join(root, "src/cli/main.ts"), "search", "create an issue", "--catalog", catalog],
      { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: path.join(work, "cache-src") } },
    );
    expect(out).toBe(source);
    expect(files.filter((file) => HEAVY.test(file))).toEqual([]);
    // node_modules is a link to the repo's: a package resolves to its real path there
    expect(files.filter((file) => !/^dist\/bundle\/|node_modules\/stemmer\//.test(file))).toEqual(
      [],
    );
    expect(files.length).toBeLessThan(25);
  }, 60_000);

  it("rank loads none of the heavy modules either", () => {
    const queries = path.join(work, "queries.jsonl");
    writeFileSync(queries, '{"id":"1","query":"create an issue"}\n');
    const { out, files } = runBundle(["rank", "--catalog", catalog, "--queries", queries]);
    expect(out).toMatch(/^\{"id":"1","ranked":\["/);
    expect(files.filter((file) => HEAVY.test(file))).toEqual([]);
  }, 60_000);

  it("finds package.json and the inspector's page where the tsc build does", () => {
    expect(runBundle(["--version"]).out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(existsSync(path.join(work, "dist/bundle/assets/index.html"))).toBe(true);
  }, 60_000);
});
