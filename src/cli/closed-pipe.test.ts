import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("toolsift … | head", () => {
  it("stops quietly when the reader closes the pipe early (no EPIPE stack trace)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-pipe-"));
    const tools = Array.from({ length: 50 }, (_, index) => ({
      name: `tool_${index}`,
      description: `Tool number ${index} reads and writes records.`,
      inputSchema: { type: "object" },
    }));
    writeFileSync(path.join(dir, "tools.json"), JSON.stringify(tools));
    // enough ranking lines that the CLI is still writing after head has exited
    const lines = Array.from({ length: 20_000 }, (_, index) =>
      JSON.stringify({ id: `q${index}`, query: "read records" }),
    );
    writeFileSync(path.join(dir, "queries.jsonl"), `${lines.join("\n")}\n`);
    const cli = `${JSON.stringify(path.join(root, "node_modules/.bin/tsx"))} ${JSON.stringify(path.join(root, "src/cli/main.ts"))}`;
    const run = spawnSync(
      "bash",
      [
        "-c",
        `${cli} rank --catalog tools.json --queries queries.jsonl --k 10 2>stderr.txt | head -n 1; cat stderr.txt`,
      ],
      { cwd: dir, encoding: "utf8", timeout: 60_000 },
    );
    const [first, ...rest] = run.stdout.split("\n");
    expect(JSON.parse(first ?? "").id).toBe("q0");
    expect(rest.join("\n")).not.toMatch(/EPIPE|Unhandled|at /);
  }, 60_000);
});
