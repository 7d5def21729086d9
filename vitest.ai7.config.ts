// The AI SDK adapter's tests against ai@7, which needs Node 22. ai@7 lives outside the repo's
// node_modules (the repo pins ai@6 for Node 20): TOOLSIFT_AI7_DIR names a folder where
// `npm install ai@7 zod` ran, and `ai` / `ai/test` resolve there. See docs/integrations.md.
import path from "node:path";
import { defineConfig } from "vitest/config";

const dir = process.env.TOOLSIFT_AI7_DIR;
if (!dir) {
  throw new Error(
    "vitest.ai7.config.ts: set TOOLSIFT_AI7_DIR to a folder with ai@7 installed (npm install ai@7 zod there), and run under Node 22.",
  );
}
const ai = path.join(path.resolve(dir), "node_modules/ai/dist");

export default defineConfig({
  resolve: {
    alias: [
      { find: /^ai$/, replacement: path.join(ai, "index.js") },
      { find: /^ai\/test$/, replacement: path.join(ai, "test/index.js") },
    ],
  },
  test: {
    include: ["src/adapters/ai-sdk/**/*.test.ts"],
    env: { TOOLSIFT_AI_MAJOR: "7" },
    testTimeout: 30_000,
    pool: "forks",
  },
});
