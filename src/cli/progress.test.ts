import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capture } from "./__tests__/capture.js";
import { indexTools, loadTools } from "./load.js";
import { createProgress } from "./terminal.js";

const tool = (name: string) => ({
  name,
  description: `Tool ${name}.`,
  inputSchema: { type: "object" },
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "toolsift-progress-"));
  writeFileSync(path.join(dir, "alpha.json"), JSON.stringify({ tools: [tool("a1"), tool("a2")] }));
  writeFileSync(path.join(dir, "beta.json"), JSON.stringify({ tools: [tool("b1")] }));
  return dir;
}

describe("createProgress", () => {
  it("stays quiet for the first second, then shows at most one step a second", () => {
    let time = 0;
    const io = capture({ stderrTTY: true });
    const progress = createProgress(io, 1_000, () => time);
    progress.step("early");
    time = 1_000;
    progress.step("first");
    time = 1_500;
    progress.step("too soon");
    time = 2_000;
    progress.step("second");
    expect(io.err).toBe("… first\n… second\n");
    expect(progress.shown).toBe(true);
  });
});

describe("catalog loading progress (search, rank, eval, prepare)", () => {
  it("names each catalog file and the indexing on a terminal's stderr", async () => {
    const io = capture({ stderrTTY: true });
    const progress = createProgress(io, 0);
    const tools = await loadTools({ catalog: [folder()] }, io, progress);
    indexTools(tools, progress);
    expect(io.err).toBe(
      "… reading alpha.json (catalog 1 of 2)\n… reading beta.json (catalog 2 of 2)\n… indexing 3 tools\n",
    );
  });

  it("writes nothing when stderr is piped", async () => {
    const io = capture();
    const progress = createProgress(io, 0);
    indexTools(await loadTools({ catalog: [folder()] }, io, progress), progress);
    expect(io.err).toBe("");
  });
});
