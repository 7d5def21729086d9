#!/usr/bin/env node
// The toolsift command's launcher: runs the build, or, in a clone that was not built yet, says
// how to build instead of npx's bare "not found".
try {
  await import("../dist/cli/main.js");
} catch (error) {
  const missing =
    error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli/main.js");
  if (!missing) throw error;
  process.stderr.write(
    "toolsift is not built yet: run `npm install && npm run build` in this clone, then `npx toolsift` again (or `npm run toolsift -- ARGS` to run from source).\n",
  );
  process.exitCode = 1;
}
