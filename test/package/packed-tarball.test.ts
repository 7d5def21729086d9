// The package as a user gets it: `npm pack` (which builds through `prepack`), installed from the
// tarball into an empty project, then every subpath imported from ESM JavaScript and from
// TypeScript (node16 and bundler resolution), and the bin run through npx (as the README's
// client config runs it). The install is the same on every machine: the empty project starts from
// the repo's own package-lock.json, so npm takes every version (the runtime dependencies, the
// optional peers and all they need) from it and asks the registry for no metadata; the tarballs
// come from the cache `npm ci` filled (--prefer-offline), else from the registry at exactly the
// locked version and integrity.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  version: string;
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
/** The optional peers (the MCP SDK, the AI SDK, React) at the versions the repo pins, so their
 * subpaths load;
 * types come along for the TypeScript checks (`@ai-sdk/provider`'s declarations import
 * `json-schema`, which ships none). */
const companions: Record<string, string[]> = {
  ai: ["@types/json-schema"],
  react: ["react-dom", "@types/react"],
};
const peers = Object.fromEntries(
  Object.keys(manifest.peerDependencies ?? {})
    .flatMap((name) => [name, ...(companions[name] ?? [])])
    .map((name) => [name, manifest.devDependencies[name]]),
);
/** Every import path the package offers, except its package.json. */
const subpaths = Object.keys(manifest.exports)
  .filter((key) => !key.endsWith("package.json"))
  .map((key) => (key === "." ? "toolsift" : `toolsift/${key.slice(2)}`));
const tsc = path.join(root, "node_modules/typescript/bin/tsc");

/** The README's Claude Desktop snippet: the first JSON block with a server that runs `serve`. */
interface ClientServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}
function readmeClientServer(): ClientServer {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  for (const [, block] of readme.matchAll(/```json\n([\s\S]*?)```/g)) {
    const config = JSON.parse(block ?? "{}") as { mcpServers?: Record<string, ClientServer> };
    const server = Object.values(config.mcpServers ?? {})[0];
    if (server?.args.includes("serve")) return server;
  }
  throw new Error("README.md has no JSON client config whose server runs serve");
}
/** Per-test limit for tsc, attw and npx: only a hang should reach it (on the busy 2-core
 * machine, load 20, the node16 type-check took 153 s). */
const HANG_GUARD_MS = 600_000;

let work = "";
let app = "";
let tarball = "";
let packed: string[] = [];

/** Runs a command; a failure shows its output (tsc writes its errors to stdout). */
function run(command: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_update_notifier: "false", NO_COLOR: "1" },
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "toolsift-pack-"));
  // without dist/, the tarball has a build only if `prepack` makes one
  rmSync(path.join(root, "dist"), { recursive: true, force: true });
  // --json lists the files packed; prepack builds dist/ first
  const report = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], root));
  packed = report[0].files.map((file: { path: string }) => file.path);
  tarball = path.join(work, report[0].filename);
  app = path.join(work, "app");
  run("mkdir", ["-p", app], work);
  const dependencies = { toolsift: `file:${tarball}`, ...peers };
  writeFileSync(
    path.join(app, "package.json"),
    JSON.stringify({ name: "app", private: true, type: "module", dependencies }),
  );
  // the repo's lockfile with the app as its root: npm keeps the locked versions the app needs
  // (toolsift's dependencies resolve to the same entries) and prunes the dev tools
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
  lock.name = "app";
  lock.packages[""] = { name: "app", dependencies };
  writeFileSync(path.join(app, "package-lock.json"), JSON.stringify(lock));
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], app);
}, 240_000);

afterAll(() => {
  // the temp app holds the optional peers' node_modules: removing them takes a while under load
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

describe("the packed tarball", () => {
  it("installs at the repo's locked versions, whatever the registry holds today", () => {
    const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
    const installed = (name: string) =>
      JSON.parse(readFileSync(path.join(app, "node_modules", name, "package.json"), "utf8"))
        .version as string;
    const names = [...Object.keys(manifest.dependencies), ...Object.keys(peers)];
    for (const name of names)
      expect(installed(name), name).toBe(lock.packages[`node_modules/${name}`].version);
  });

  it("ships the build, the licence and no source maps pointing at unshipped sources", () => {
    expect(packed).toContain("LICENSE");
    expect(packed).toContain("README.md");
    expect(packed).toContain("dist/index.js");
    expect(packed).toContain("dist/index.d.ts");
    expect(packed).toContain("dist/cli/main.js");
    // the bin's CLI bundle, with the inspector's page beside it
    expect(packed).toContain("dist/bundle/toolsift.js");
    expect(packed).toContain("dist/bundle/assets/index.html");
    // the inspector's page is served from files beside its code, copied by the build
    for (const asset of [
      "index.html",
      "inspector.css",
      "inspector.js",
      "inspector-common.js",
      "inspector-sessions.js",
      "inspector-learned.js",
      "inspector-search.js",
      "inspector-charts.js",
      "favicon.svg",
    ]) {
      expect(packed).toContain(`dist/inspector/assets/${asset}`);
    }
    expect(packed.filter((file) => file.endsWith(".map"))).toEqual([]);
    expect(packed.filter((file) => file.includes(".test."))).toEqual([]);
  });

  it("imports every subpath from ESM JavaScript", () => {
    const script = [
      ...subpaths.map((subpath, index) => `import * as m${index} from ${JSON.stringify(subpath)};`),
      `const modules = { ${subpaths.map((subpath, index) => `${JSON.stringify(subpath)}: m${index}`).join(", ")} };`,
      "const counts = Object.fromEntries(Object.entries(modules).map(([k, v]) => [k, Object.keys(v).length]));",
      "const sift = m0.createToolSift({ tools: [{ name: 'ping', description: 'Ping a host.', inputSchema: { type: 'object' } }] });",
      "console.log(JSON.stringify({ counts, hit: sift.search('ping').hits[0]?.name }));",
    ].join("\n");
    writeFileSync(path.join(app, "check.mjs"), script);
    const result = JSON.parse(run(process.execPath, ["check.mjs"], app));
    for (const subpath of subpaths) expect(result.counts[subpath]).toBeGreaterThan(0);
    expect(result.hit).toBe("ping");
  });

  it.each([
    // node16 also checks every shipped declaration file (skipLibCheck off); bundler then checks
    // resolution and use only, since a full library check costs ~15 s on a busy CI machine
    ["node16", { module: "node16", moduleResolution: "node16", skipLibCheck: false }],
    ["bundler", { module: "esnext", moduleResolution: "bundler", skipLibCheck: true }],
  ])(
    "type-checks every subpath from TypeScript (%s resolution)",
    (name, options) => {
      const source = [
        'import { createToolSift, type ToolDefinition, type SearchResult } from "toolsift";',
        ...subpaths
          .slice(1)
          .map((subpath, index) => `import * as p${index} from ${JSON.stringify(subpath)};`),
        'const tool: ToolDefinition = { name: "ping", description: "Ping.", inputSchema: { type: "object" } };',
        'const result: SearchResult = createToolSift({ tools: [tool] }).search("ping");',
        `export const used = [result, ${subpaths
          .slice(1)
          .map((_, index) => `p${index}`)
          .join(", ")}];`,
      ].join("\n");
      writeFileSync(path.join(app, `check-${name}.ts`), source);
      writeFileSync(
        path.join(app, `tsconfig.${name}.json`),
        JSON.stringify({
          compilerOptions: {
            ...options,
            target: "es2022",
            strict: true,
            noEmit: true,
            typeRoots: [path.join(root, "node_modules/@types")],
            types: ["node"],
          },
          files: [`check-${name}.ts`],
        }),
      );
      expect(() => run(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], app)).not.toThrow();
    },
    HANG_GUARD_MS,
  );

  it("passes publint (strict) and attw on the ESM-only profile", { timeout: HANG_GUARD_MS }, () => {
    const bin = (name: string, file: string) => path.join(root, "node_modules", name, file);
    const publint = run(
      process.execPath,
      [bin("publint", "src/cli.js"), "run", tarball, "--strict"],
      work,
    );
    expect(publint).toContain("All good!");
    // ESM-only: node10 and require() from CommonJS are out of scope (README, "Install")
    const attw = run(
      process.execPath,
      [
        bin("@arethetypeswrong/cli", "dist/index.js"),
        tarball,
        "--profile",
        "esm-only",
        "--format",
        "json",
      ],
      work,
    );
    // run() throws on a non-zero exit; the JSON also lists the ignored resolutions, so filter them
    const problems = Object.values(
      (JSON.parse(attw) as { problems: Record<string, { resolutionKind?: string }[]> }).problems,
    )
      .flat()
      .filter((problem) => !["node10", "node16-cjs"].includes(problem.resolutionKind ?? ""));
    expect(problems).toEqual([]);
  });

  it("runs the README's client config (npx -p …, the tarball for `toolsift`) from an empty folder", {
    timeout: HANG_GUARD_MS,
  }, () => {
    const { command, args, env } = readmeClientServer();
    expect(command).toBe("npx");
    const serve = args.indexOf("serve");
    expect(serve, args.join(" ")).toBeGreaterThan(0);
    // as the README says before a registry holds toolsift: the tarball after the first -p
    const first = args.indexOf("-p");
    expect(args[first + 1]).toBe("toolsift");
    const form = [...args.slice(0, serve + 1), "--help"].map((arg, index) =>
      index === first + 1 ? tarball : arg,
    );
    // a folder with no package.json and no node_modules: the client's start folder is unknown
    const empty = path.join(work, "elsewhere");
    run("mkdir", ["-p", empty], work);
    const help = execFileSync(command, form, {
      cwd: empty,
      encoding: "utf8",
      env: { ...process.env, ...env, npm_config_update_notifier: "false", NO_COLOR: "1" },
    });
    expect(help).toContain("Usage: toolsift serve");
  });

  it("runs the README's clone form, node …/bin/toolsift.mjs serve", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain('["/path/to/toolsift/bin/toolsift.mjs", "serve", "--config"');
    const help = run(
      process.execPath,
      [path.join(root, "bin/toolsift.mjs"), "serve", "--help"],
      app,
    );
    expect(help).toContain("Usage: toolsift serve");
    // `npm run build` keeps the execute bit, so `npx toolsift` in a clone is not "Permission denied"
    expect(statSync(path.join(root, "dist/cli/main.js")).mode & 0o111).not.toBe(0);
  });

  it("runs the bin through npx", { timeout: HANG_GUARD_MS }, () => {
    expect(run("npx", ["--no-install", "toolsift", "--version"], app).trim()).toBe(
      manifest.version,
    );
  });
});
