import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadCatalogFile } from "../catalog/node.js";
import { createToolSift } from "../create-toolsift.js";
import { capture } from "./__tests__/capture.js";
import { cacheDir, evict } from "./index-cache.js";
import { runCli } from "./run-cli.js";

const TOOLS = [
  { name: "create_issue", description: "Create a GitHub issue", inputSchema: { type: "object" } },
  { name: "send_message", description: "Send a Slack message", inputSchema: { type: "object" } },
  { name: "read_file", description: "Read a file from disk", inputSchema: { type: "object" } },
  // text beyond ASCII (accents, CJK, an emoji's surrogate pair) comes back from the cache as is
  { name: "post_note", description: "Poste une note — メモ 📝", inputSchema: { type: "object" } },
];

function setup(): { dir: string; catalog: string; cache: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "toolsift-cache-"));
  const catalog = path.join(dir, "tools.json");
  writeFileSync(catalog, JSON.stringify(TOOLS));
  return { dir, catalog, cache: path.join(dir, "cache") };
}

async function search(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capture();
  const code = await runCli(["search", ...args, "--json"], io);
  return { code, out: io.out, err: io.err };
}

const snapshots = (cache: string) => readdirSync(cache).filter((name) => name.endsWith(".bin"));

describe("the CLI's index cache", () => {
  it("writes a snapshot on the first run and reads it on the next, with the same answer", async () => {
    const { catalog, cache } = setup();
    const first = await search(["slack message", "--catalog", catalog, "--cache", cache]);
    expect(first.err).toBe("");
    const [file] = snapshots(cache);
    expect(file).toMatch(/^catalog-[0-9a-f]+\.bin$/);
    const written = statSync(path.join(cache, file as string)).ino;
    const second = await search(["slack message", "--catalog", catalog, "--cache", cache]);
    expect(second).toEqual(first);
    // read, not rewritten: the same file (a rewrite renames a new one into place)
    expect(statSync(path.join(cache, file as string)).ino).toBe(written);
    expect(readdirSync(cache).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    const note = await search(["note", "--catalog", catalog, "--cache", cache]);
    expect(note.out).toContain("Poste une note — メモ 📝");
    expect(await search(["note", "--catalog", catalog, "--cache", cache])).toEqual(note);
  });

  it("keys by content: a changed catalog gets its own snapshot", async () => {
    const { catalog, cache } = setup();
    await search(["issue", "--catalog", catalog, "--cache", cache]);
    writeFileSync(catalog, JSON.stringify(TOOLS.slice(1)));
    await search(["issue", "--catalog", catalog, "--cache", cache]);
    expect(snapshots(cache)).toHaveLength(2);
  });

  it("warns, rebuilds and rewrites a damaged cache file", async () => {
    const { catalog, cache } = setup();
    const clean = await search(["file", "--catalog", catalog, "--cache", cache]);
    const file = path.join(cache, snapshots(cache)[0] as string);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] as number) ^ 0xff;
    writeFileSync(file, bytes);
    const damaged = await search(["file", "--catalog", catalog, "--cache", cache]);
    expect(damaged.err).toMatch(/warning: Saved search index not used: its checksum/);
    expect(damaged.out).toBe(clean.out);
    const repaired = await search(["file", "--catalog", catalog, "--cache", cache]);
    expect(repaired.err).toBe("");
  });

  it("on a hit prints the load's warnings again without reading the catalog's JSON", async () => {
    const { catalog, cache } = setup();
    writeFileSync(catalog, JSON.stringify([...TOOLS, { name: "broken", inputSchema: [] }]));
    const first = await search(["file", "--catalog", catalog, "--cache", cache]);
    expect(first.err).toMatch(/warning: skipped broken/);
    const file = path.join(cache, snapshots(cache)[0] as string);
    const written = statSync(file).ino;
    const second = await search(["file", "--catalog", catalog, "--cache", cache]);
    expect(second).toEqual(first);
    expect(statSync(file).ino).toBe(written);
  });

  it("warns about and rebuilds an entry whose tools are damaged", async () => {
    const { catalog, cache } = setup();
    const clean = await search(["file", "--catalog", catalog, "--cache", cache]);
    const file = path.join(cache, snapshots(cache)[0] as string);
    const bytes = readFileSync(file);
    // the tools' JSON starts after the 44-byte header
    bytes[60] = (bytes[60] as number) ^ 0x01;
    writeFileSync(file, bytes);
    const damaged = await search(["file", "--catalog", catalog, "--cache", cache]);
    expect(damaged.err).toMatch(
      /warning: index cache file .* not used \(its checksum does not match\)/,
    );
    expect(damaged.out).toBe(clean.out);
    expect((await search(["file", "--catalog", catalog, "--cache", cache])).err).toBe("");
  });

  it("answers the same from the cache in every mode (regex, --explain, rank)", async () => {
    const { dir, catalog, cache } = setup();
    const queries = path.join(dir, "queries.jsonl");
    writeFileSync(queries, '{"id":"1","query":"message"}\n{"id":"2","query":"file"}\n');
    const runs = async () => [
      await search(["/mess|note/", "--catalog", catalog, "--cache", cache]),
      await search(["read a file", "--explain", "--catalog", catalog, "--cache", cache]),
      await runCli(
        ["rank", "--catalog", catalog, "--queries", queries, "--cache", cache],
        capture(),
      ),
    ];
    const cold = await search(["issue", "--catalog", catalog, "--no-cache"]);
    expect(await search(["issue", "--catalog", catalog, "--cache", cache])).toEqual(cold);
    expect(snapshots(cache)).toHaveLength(1);
    expect(await runs()).toEqual(await runs());
    const rank = capture();
    await runCli(["rank", "--catalog", catalog, "--queries", queries, "--cache", cache], rank);
    expect(rank.out).toContain('"ranked":["send_message"');
  });

  it("finds a settled catalog by its stamps, and reads it again once it changed", async () => {
    const { dir, catalog, cache } = setup();
    const other = path.join(dir, "other.json");
    writeFileSync(other, JSON.stringify([TOOLS[0]]));
    const stampMaps = () =>
      readdirSync(cache)
        .filter((name) => name.startsWith("stamps-"))
        .map((name) => path.join(cache, name));
    const keyOf = (map: string) => JSON.parse(readFileSync(map, "latin1")).key as string;
    // the clock moved on: the files look settled, so their stamps are saved
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_000);
    try {
      await search(["issue", "--catalog", catalog, "--cache", cache]);
      const [first] = stampMaps();
      await search(["issue", "--catalog", other, "--cache", cache]);
      expect(stampMaps()).toHaveLength(2);
      // the stamps decide the entry without reading the file: point other's map at the first key
      const second = stampMaps().find((map) => map !== first) as string;
      const text = readFileSync(second, "latin1");
      writeFileSync(second, text.replace(keyOf(second), keyOf(first as string)));
    } finally {
      vi.useRealTimers();
    }
    const trusted = await search(["message", "--catalog", other, "--cache", cache]);
    expect(trusted.out).toContain("send_message");
    // a change to the file (same size, mtime set back) changes its ctime: read and hashed again
    const { mtime } = statSync(other);
    writeFileSync(other, JSON.stringify([TOOLS[0]]).replace("GitHub issue", "GitHub event"));
    utimesSync(other, mtime, mtime);
    const changed = await search(["message", "--catalog", other, "--cache", cache]);
    expect(changed.out).not.toContain("send_message");
    const again = await search(["event", "--catalog", other, "--cache", cache]);
    expect(again.out).toContain("create_issue");
  });

  it("writes nothing with --no-cache", async () => {
    const { dir, catalog } = setup();
    await search(["file", "--catalog", catalog, "--no-cache"]);
    expect(readdirSync(dir)).toEqual(["tools.json"]);
  });

  it("uses XDG_CACHE_HOME, then ~/.cache", () => {
    expect(cacheDir({}, { XDG_CACHE_HOME: "/x" })).toBe(path.join("/x", "toolsift"));
    expect(cacheDir({}, {})).toMatch(/\.cache[/\\]toolsift$/);
    expect(cacheDir({ "no-cache": true }, { XDG_CACHE_HOME: "/x" })).toBeUndefined();
  });

  it("evicts the least recently used snapshots beyond the size limit", () => {
    const { dir } = setup();
    for (const [position, name] of ["index-a.bin", "index-b.bin", "index-c.bin"].entries()) {
      const file = path.join(dir, name);
      writeFileSync(file, new Uint8Array(100));
      utimesSync(file, 1000 + position, 1000 + position);
    }
    evict(dir, 250, path.join(dir, "index-a.bin"));
    // a is kept (just written), b is the oldest of the rest
    expect(readdirSync(dir).sort()).toEqual(["index-a.bin", "index-c.bin", "tools.json"]);
  });

  it("toolsift index --out writes an index createToolSift loads without a build", async () => {
    const { dir, catalog } = setup();
    const out = path.join(dir, "index.bin");
    const io = capture();
    expect(await runCli(["index", "--catalog", catalog, "--out", out], io)).toBe(0);
    expect(io.err).toMatch(/wrote the index of 4 tools/);
    const { tools } = await loadCatalogFile(catalog);
    const warnings: string[] = [];
    const sift = createToolSift({
      tools,
      index: readFileSync(out),
      onWarning: (message) => warnings.push(message),
    });
    expect(warnings).toEqual([]);
    expect(sift.search("slack").hits[0]?.name).toBe("send_message");
  });
});
