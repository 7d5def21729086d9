#!/usr/bin/env node
// The toolsift command's launcher: runs the build's CLI bundle (`dist/bundle/toolsift.js`, a few
// files where tsc's build has about a hundred), or, in a clone that was not built yet, says how
// to build instead of npx's bare "not found".
import module from "node:module";

// Node 22.1+ keeps compiled code between runs (in its temp folder, or NODE_COMPILE_CACHE; off
// with NODE_DISABLE_COMPILE_CACHE); older Node has no such call and compiles as before
module.enableCompileCache?.();
try {
  await import("../dist/bundle/toolsift.js");
} catch (error) {
  const missing =
    error?.code === "ERR_MODULE_NOT_FOUND" &&
    String(error.message).includes("dist/bundle/toolsift.js");
  if (!missing) throw error;
  process.stderr.write(
    "toolsift is not built yet: run `npm install && npm run build` in this clone, then `npx toolsift` again (or `npm run toolsift -- ARGS` to run from source).\n",
  );
  process.exitCode = 1;
}
