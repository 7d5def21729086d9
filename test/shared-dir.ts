import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The `shared/` folder that CI places beside the repo; TOOLSIFT_SHARED overrides it. */
export function sharedDir(): string {
  const fromEnv = process.env.TOOLSIFT_SHARED;
  if (fromEnv) return path.resolve(fromEnv);
  const beside = path.resolve(repoRoot, "../shared");
  if (existsSync(beside)) return beside;
  // a git worktree two levels down (/work/wt/NAME) still finds /work/shared
  return path.resolve(repoRoot, "../../shared");
}
