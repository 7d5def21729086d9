// The CLI as one bundled ES module and lazy chunks (`npm run build` runs this after tsc), for the
// `toolsift` bin: a start loads a few files instead of about a hundred (issue 25). Each command's
// module stays a chunk of its own, loaded when that command runs, so `search` and `rank` never
// load the gateway, the inspector, the providers or the MCP SDK. Packages stay imports, resolved
// from node_modules as the tsc build's are. `dist/cli/main.js` (tsc's) is untouched: the README's
// client configs run `node …/dist/cli/main.js serve`.
import { chmodSync, cpSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// at the depth of dist/cli/*.js, so `import.meta.url`-relative paths (package.json two levels
// up, the inspector's assets beside its code) resolve as they do there; a test passes another
// folder as the first argument
const outdir = path.resolve(process.argv[2] ?? path.join(root, "dist/bundle"));

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { toolsift: path.join(root, "src/cli/main.ts") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  packages: "external",
  chunkNames: "[name]-[hash]",
  legalComments: "none",
  logLevel: "warning",
});
// the inspector reads its page from `./assets` beside its module
cpSync(path.join(root, "src/inspector/assets"), path.join(outdir, "assets"), { recursive: true });
chmodSync(path.join(outdir, "toolsift.js"), 0o755);
