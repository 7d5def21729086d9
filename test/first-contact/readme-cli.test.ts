// Every `npm run -s toolsift -- …` line of the README works as written from a clone (issue 10,
// deliverable 7): each is run in-process with ../shared pointing at this machine's shared folder.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { capture } from "../../src/cli/__tests__/capture.js";
import { runCli } from "../../src/cli/run-cli.js";
import { sharedDir } from "../shared-dir.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PREFIX = "npm run -s toolsift -- ";

// commands that serve until stopped; their own tests start and stop them
const SERVING = /^(inspect|serve)\b/;

/** The README's CLI lines that finish on their own, without trailing `# comments`. */
function readmeCommands(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  return readme
    .split("\n")
    .filter((line) => line.startsWith(PREFIX))
    .map((line) => line.slice(PREFIX.length).replace(/\s+#.*$/, ""))
    .filter((line) => !SERVING.test(line));
}

/** Splits a command line as a shell would for these lines: spaces, and "double quotes". */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

describe("the README's CLI commands", () => {
  const commands = readmeCommands();

  it("are there to check, and use no placeholders", () => {
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of commands) expect(command).not.toMatch(/\[|CATALOG|\.\.\./);
  });

  it.each(commands)(
    "%s",
    async (command) => {
      const args = words(command).map((word) =>
        word.startsWith("../shared/")
          ? path.join(sharedDir(), word.slice("../shared/".length))
          : word,
      );
      const io = capture();
      const code = await runCli(args, io);
      expect(io.err).not.toMatch(/error|Usage/i);
      expect(code).toBe(0);
      expect(io.out.length).toBeGreaterThan(0);
    },
    120_000,
  );
});
