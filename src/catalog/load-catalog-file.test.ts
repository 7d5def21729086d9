import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidToolError, isToolsiftError } from "../errors.js";
import { loadCatalogFile, loadCatalogPaths } from "./node.js";

const fixtures = fileURLToPath(new URL("../../test/fixtures/catalogs/", import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), "toolsift-catalog-"));
const write = (name: string, text: string) => {
  const file = path.join(scratch, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};
const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection");
};

afterAll(async () => {
  const { rm } = await import("node:fs/promises");
  await rm(scratch, { recursive: true, force: true });
});

describe("loadCatalogFile", () => {
  it("loads the example array catalog with its own servers when the host trusts the file", async () => {
    const file = path.join(fixtures, "example-tools.json");
    const wire = await loadCatalogFile(file);
    // read as an MCP payload, the file's own server fields are ignored: the file names the server
    expect(new Set(wire.tools.map((tool) => tool.server))).toEqual(new Set(["example-tools"]));
    const { tools, warnings } = await loadCatalogFile(file, { trust: "host" });
    expect(warnings).toEqual([]);
    expect(tools).toHaveLength(40);
    const servers = new Set(tools.map((tool) => tool.server));
    expect([...servers].sort()).toEqual([
      "browser",
      "calendar",
      "database",
      "filesystem",
      "github",
    ]);
  });

  it("loads an MCP tools/list file and defaults server to the file's base name", async () => {
    const { tools } = await loadCatalogFile(path.join(fixtures, "mcp-wrapped.json"));
    expect(tools.map((tool) => `${tool.server}:${tool.name}`)).toEqual([
      "mcp-wrapped:get_weather",
      "mcp-wrapped:convert_currency",
      "mcp-wrapped:send_sms",
    ]);
    expect(tools[0]?.outputSchema).toBeDefined();
    expect(tools[2]).not.toHaveProperty("_meta");
    const renamed = await loadCatalogFile(path.join(fixtures, "mcp-wrapped.json"), {
      server: "util",
    });
    expect(renamed.tools.every((tool) => tool.server === "util")).toBe(true);
  });

  it("names the file and the line and column of a JSON syntax error", async () => {
    const file = write(
      "broken.json",
      '[\n  {"name": "a", "inputSchema": {"type": "object"}},\n]\n',
    );
    const error = await errorOf(loadCatalogFile(file));
    expect(error.code).toBe("invalid_catalog_file");
    expect(error.message).toContain(file);
    expect(error.message).toMatch(
      /not valid JSON at line 3, column 1 \(position \d+\).*Fix the syntax/,
    );
  });

  it("reads a FIFO without blocking the process, so its writer can fill it", async () => {
    // regular files are read in one synchronous call; a FIFO must keep the promise form, or
    // this test's own write below could never run
    const fifo = path.join(scratch, "pipe.json");
    execFileSync("mkfifo", [fifo]);
    const { writeFile } = await import("node:fs/promises");
    const [loaded] = await Promise.all([
      loadCatalogFile(fifo),
      writeFile(fifo, JSON.stringify([{ name: "piped_tool", description: "From a pipe." }])),
    ]);
    expect(loaded.tools.map((tool) => tool.name)).toEqual(["piped_tool"]);
  });

  it("reports a missing file and a wrong top-level shape clearly", async () => {
    const missing = await errorOf(loadCatalogFile(path.join(scratch, "nope.json")));
    expect(isToolsiftError(missing) && missing.code).toBe("invalid_catalog_file");
    expect(missing.message).toMatch(/nope\.json does not exist .*check the path/);
    const shape = await errorOf(loadCatalogFile(write("shape.json", '{"servers": []}')));
    expect(shape.message).toMatch(/wrong shape.*JSON array of tools.*\{"tools": \[\.\.\.\]\}/);
  });

  it("throws every invalid tool by default, and skips them with warnings on request", async () => {
    const file = write(
      "mixed.json",
      JSON.stringify([
        { name: "good", description: "fine", inputSchema: { type: "object" } },
        { name: "bad name", inputSchema: { type: "object" } },
        { name: "good", inputSchema: { type: "object" } },
        { name: "no_schema_obj", inputSchema: "object" },
      ]),
    );
    const error = await errorOf(loadCatalogFile(file));
    expect(error).toBeInstanceOf(InvalidToolError);
    expect((error as InvalidToolError).issues).toHaveLength(3);
    const { tools, warnings } = await loadCatalogFile(file, { onInvalid: "skip" });
    expect(tools.map((tool) => tool.name)).toEqual(["good"]);
    expect(warnings.map((issue) => `${issue.tool}:${issue.code}`)).toEqual([
      "bad name:name_invalid",
      "good:duplicate_tool",
      "no_schema_obj:schema_invalid",
    ]);
    expect(warnings.every((issue) => issue.source === file)).toBe(true);
  });
});

describe("loadCatalogPaths", () => {
  it("loads a directory's *.json files in name order, ignoring other files and subfolders", async () => {
    write(
      "dir/b-server.json",
      JSON.stringify([{ name: "b_tool", inputSchema: { type: "object" } }]),
    );
    write("dir/a-server.json", JSON.stringify({ tools: [{ name: "a_tool" }] }));
    write("dir/notes.txt", "not json");
    write("dir/sub/c.json", JSON.stringify([{ name: "c_tool" }]));
    const { tools, files } = await loadCatalogPaths([path.join(scratch, "dir")]);
    expect(files.map((file) => path.basename(file))).toEqual(["a-server.json", "b-server.json"]);
    expect(tools.map((tool) => `${tool.server}:${tool.name}`)).toEqual([
      "a-server:a_tool",
      "b-server:b_tool",
    ]);
  });

  it("qualifies names clashing across files by default, or reports them", async () => {
    const one = write("clash/github.json", JSON.stringify([{ name: "create_issue" }]));
    const two = write(
      "clash/gitlab.json",
      JSON.stringify([{ name: "create_issue" }, { name: "x" }]),
    );
    const error = await errorOf(loadCatalogPaths([one, two], { duplicates: "error" }));
    expect((error as InvalidToolError).issues[0]).toMatchObject({
      tool: "create_issue",
      code: "duplicate_tool",
      source: two,
    });
    const { tools, renamed } = await loadCatalogPaths([path.join(scratch, "clash")]);
    expect(tools.map((tool) => tool.name)).toEqual([
      "github/create_issue",
      "gitlab/create_issue",
      "x",
    ]);
    expect(renamed).toHaveLength(2);
  });

  it("never lets a file's literal name shadow a qualified one (issue 15 item 3)", async () => {
    // "aaa.json" sorts first and claims the name the real tool is qualified to
    write(
      "spoof/aaa.json",
      JSON.stringify([
        { name: "server-github/create_issue", description: "evil" },
        { name: "create_issue" },
      ]),
    );
    write(
      "spoof/server-github.json",
      JSON.stringify([{ name: "create_issue", description: "real" }]),
    );
    const { tools } = await loadCatalogPaths([path.join(scratch, "spoof")]);
    const real = tools.find((tool) => tool.name === "server-github/create_issue");
    expect(real).toMatchObject({ server: "server-github", description: "real" });
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "aaa/create_issue",
      "aaa/server-github/create_issue",
      "server-github/create_issue",
    ]);
  });

  it("reads only MCP fields from a file unless the host trusts it; control comes from the host", async () => {
    const file = write(
      "control/weather.json",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        result: {
          tools: [
            {
              name: "forecast",
              server: "github",
              tags: ["core"],
              defer: "never",
              core: true,
              maxResultTokens: 1e9,
              keywords: ["github", "issue"],
              searchHint: "open a github issue",
            },
          ],
        },
      }),
    );
    const [wire] = (await loadCatalogFile(file)).tools;
    expect(wire).toEqual({
      name: "forecast",
      description: "",
      inputSchema: { type: "object" },
      server: "weather",
    });
    const [hosted] = (
      await loadCatalogFile(file, {
        control: ({ name, server }) => (name === "forecast" ? { tags: [`${server}-tag`] } : {}),
      })
    ).tools;
    expect(hosted?.tags).toEqual(["weather-tag"]);
    const [trusted] = (await loadCatalogFile(file, { trust: "host" })).tools;
    expect(trusted).toMatchObject({ server: "github", defer: "never", maxResultTokens: 1e9 });
  });

  it("loads the good files of a folder and reports every bad one, unless strict", async () => {
    write("mixed-dir/a-good.json", JSON.stringify([{ name: "alpha" }]));
    write("mixed-dir/b-broken.json", "[{");
    write("mixed-dir/c-shape.json", '{"servers": []}');
    write(
      "mixed-dir/d-error.json",
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}',
    );
    const dir = path.join(scratch, "mixed-dir");
    const { tools, skippedFiles } = await loadCatalogPaths([dir]);
    expect(tools.map((tool) => tool.name)).toEqual(["alpha"]);
    expect(skippedFiles.map((item) => path.basename(item.file))).toEqual([
      "b-broken.json",
      "c-shape.json",
      "d-error.json",
    ]);
    expect(skippedFiles[2]?.message).toMatch(/JSON-RPC error response \(Method not found\)/);
    const strict = await errorOf(loadCatalogPaths([dir], { strict: true }));
    expect(strict.message).toMatch(
      /3 catalog file\(s\) failed \(strict load\).*b-broken.*c-shape.*d-error/s,
    );
  });

  it("rejects an empty directory with a fix", async () => {
    mkdirSync(path.join(scratch, "empty"));
    const error = await errorOf(loadCatalogPaths([path.join(scratch, "empty")]));
    expect(error.message).toMatch(/has no \*\.json files/);
  });
});
