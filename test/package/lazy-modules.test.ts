/**
 * Lazy modules (issue 25): a search, from the root entry or the CLI, loads neither Ajv, nor the
 * tokenizer, nor the regex engine, nor (in the CLI) the disclosure layer and the provider
 * formatters. Each case runs in a child process and lists every file it loaded: the ESM loader's
 * (through a module hook) and CommonJS's (`require.cache`, which `createRequire` fills too).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const catalog = path.join(root, "test/fixtures/catalogs/example-tools.json");
const HEAVY = /node_modules\/(ajv|ajv-formats|gpt-tokenizer|re2js)\//;

/** Runs `body` (an ES module's text, after `import { loaded } from "./loaded.mjs"`) under tsx;
 * returns the files it loaded, relative to the repository. */
function loadedFiles(body: string, args: readonly string[] = []): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "toolsift-lazy-"));
  const list = path.join(dir, "loaded.txt");
  writeFileSync(
    path.join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(list)}, url + "\\n");
  return next(url, context);
}`,
  );
  writeFileSync(
    path.join(dir, "loaded.mjs"),
    `import { readFileSync } from "node:fs";
import { createRequire, register } from "node:module";
register("./hooks.mjs", import.meta.url);
export function loaded() {
  const esm = readFileSync(${JSON.stringify(list)}, "utf8").split("\\n").filter(Boolean);
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  process.stdout.write("\\n@@" + JSON.stringify([...esm, ...cjs]));
}`,
  );
  const script = path.join(dir, "script.mjs");
  writeFileSync(script, `import { loaded } from "./loaded.mjs";\n${body}\nloaded();\n`);
  const out = execFileSync(path.join(root, "node_modules/.bin/tsx"), [script, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, XDG_CACHE_HOME: path.join(dir, "cache") },
  });
  const files = JSON.parse(out.slice(out.lastIndexOf("@@") + 2)) as string[];
  return files.map((file) => path.relative(root, file.replace(/^file:\/\//, "")));
}

const rootEntry = JSON.stringify(path.join(root, "src/index.ts"));
const mcpEntry = JSON.stringify(path.join(root, "src/mcp/index.ts"));
// the scripts run from a temporary folder: packages are imported by their files
const sdkFile = (file: string) =>
  JSON.stringify(path.join(root, "node_modules/@modelcontextprotocol/sdk/dist/esm", file));
const cliEntry = JSON.stringify(path.join(root, "src/cli/run-cli.ts"));

describe("lazy modules", () => {
  it("importing the root entry and searching loads no Ajv, tokenizer or regex engine", () => {
    const files = loadedFiles(`
import { readFileSync } from "node:fs";
const { createToolSift } = await import(${rootEntry});
const tools = JSON.parse(readFileSync(${JSON.stringify(catalog)}, "utf8"));
const sift = createToolSift({ tools: tools.tools ?? tools, onWarning: () => {} });
if (sift.search("create an issue").hits.length === 0) throw new Error("no hits");`);
    expect(files.some((file) => file.startsWith("src/search/"))).toBe(true);
    expect(files.filter((file) => HEAVY.test(file))).toEqual([]);
  }, 60_000);

  it("Ajv loads on the first call that checks arguments (the check above can see it)", () => {
    const files = loadedFiles(`
const { createToolSift } = await import(${rootEntry});
const sift = createToolSift({
  tools: [{ name: "echo", description: "Echo", inputSchema: { type: "object" }, handler: () => "ok" }],
});
const outcome = await sift.execute({ session: "s", name: "echo", arguments: {} });
if (outcome.isError) throw new Error("echo failed");`);
    expect(files.some((file) => /node_modules\/ajv\//.test(file))).toBe(true);
  }, 60_000);

  it("toolsift search loads no Ajv, tokenizer, regex engine, disclosure or provider module", () => {
    const files = loadedFiles(`
const { runCli } = await import(${cliEntry});
let out = "";
const code = await runCli(["search", "create an issue", "--catalog", ${JSON.stringify(catalog)}], {
  stdout: (text) => { out += text; },
  stderr: () => {},
});
if (code !== 0 || !out.includes("issue")) throw new Error("search failed: " + code);`);
    expect(files.some((file) => file.startsWith("src/search/"))).toBe(true);
    expect(
      files.filter(
        (file) => HEAVY.test(file) || /^src\/(disclosure|providers|mcp|policy)\//.test(file),
      ),
    ).toEqual([]);
  }, 60_000);

  it("a gateway session without telemetry loads no OpenTelemetry module; loading it does", () => {
    const session = (telemetry: string) => `
const mcp = await import(${mcpEntry});
const { InMemoryTransport } = await import(${sdkFile("inMemory.js")});
const { Client } = await import(${sdkFile("client/index.js")});
const sift = await mcp.createMCPToolSift({
  servers: {},
  tools: [{ name: "echo", description: "Echo", inputSchema: { type: "object" }, handler: () => "ok" }],
});
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
${telemetry}
await mcp.createGatewaySession("s", { sift, mode: "direct", ...options }).connect(serverSide);
const client = new Client({ name: "lazy", version: "1" });
await client.connect(clientSide);
const result = await client.callTool({ name: "echo", arguments: {} });
if (result.isError) throw new Error("echo failed");
await client.close();`;
    const OTEL = /node_modules\/@opentelemetry\//;
    const off = loadedFiles(session("const options = {};"));
    expect(off.some((file) => file.startsWith("src/mcp/serve/"))).toBe(true);
    expect(off.filter((file) => OTEL.test(file))).toEqual([]);
    const on = loadedFiles(
      session("const options = { telemetry: await mcp.loadGatewayTelemetry() };"),
    );
    expect(on.some((file) => OTEL.test(file))).toBe(true);
  }, 120_000);
});
