// The npm registry this project installs from serves Biome's native packages only for glibc
// Linux, so `npm install` leaves the other platforms' optional entries out of package-lock.json
// and `npm ci` then refuses the lock ("Missing: @biomejs/cli-darwin-arm64@ from lock file").
// This adds those entries (optional, platform-tagged: npm skips them here). Run it after any
// `npm install` that rewrites the lock: `node scripts/lock-biome-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const biome = lock.packages["node_modules/@biomejs/biome"];
if (!biome) throw new Error("package-lock.json has no @biomejs/biome entry");

let added = 0;
for (const [name, version] of Object.entries(biome.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const platform = name.replace("@biomejs/cli-", "");
  const [os, cpu, libc] = platform.split("-");
  lock.packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    license: "MIT OR Apache-2.0",
    optional: true,
    os: [os],
    ...(libc ? { libc: [libc] } : {}),
    engines: { node: ">=14.21.3" },
  };
  added += 1;
}
const sorted = Object.keys(lock.packages).sort((a, b) =>
  a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1,
);
lock.packages = Object.fromEntries(sorted.map((key) => [key, lock.packages[key]]));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} Biome platform entries`);
