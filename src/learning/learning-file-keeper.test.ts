// A gateway's learning file kept in step with its evidence: saved when changed, forgotten when
// erased from outside.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { defaultLearningFile, readLearningFile } from "./learning-file.js";
import { keepLearningFile } from "./learning-file-keeper.js";
import { UsageLearning } from "./usage-learning.js";

const fill: ToolDefinition = {
  name: "fill",
  description: "Fill an input",
  inputSchema: { type: "object" },
};

function learningWith(sink: (size: number) => void = () => {}) {
  return new UsageLearning(
    {},
    (name) => (name === "fill" ? fill : undefined),
    (words) => sink(words.size),
  );
}

describe("keepLearningFile", () => {
  it("writes changed evidence, skips unchanged, and forgets a file erased from outside", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "toolsift-keeper-")), "l.json");
    const sizes: number[] = [];
    const learning = learningWith((size) => sizes.push(size));
    const keeper = keepLearningFile(learning, file, { intervalMs: 3_600_000 });
    keeper.flush();
    expect(existsSync(file)).toBe(false);
    for (const session of ["a", "b", "c"]) learning.evidence.record("type login", fill, session);
    keeper.flush();
    expect(Object.keys((readLearningFile(file) as { tools: object }).tools)).toEqual(["fill"]);
    rmSync(file);
    keeper.flush();
    // forgotten, the index told, and nothing written back
    expect(learning.evidence.toJSON().tools).toEqual({});
    expect(sizes.at(-1)).toBe(0);
    expect(existsSync(file)).toBe(false);
    learning.evidence.record("type login", fill, "d");
    keeper.close();
    expect(existsSync(file)).toBe(true);
  });

  it("reports a write that fails and keeps going", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-keeper-"));
    const learning = learningWith();
    const errors: unknown[] = [];
    // a folder where the file should be: the rename fails
    const keeper = keepLearningFile(learning, dir, { onError: (error) => errors.push(error) });
    learning.evidence.record("type login", fill, "a");
    keeper.close();
    expect(String(errors[0])).toMatch(/Cannot write learning file/);
  });
});

describe("defaultLearningFile", () => {
  it("lives under XDG_STATE_HOME, else ~/.local/state, one file per config path", () => {
    const a = defaultLearningFile("/etc/gw/team.json", { XDG_STATE_HOME: "/x/state" });
    expect(a).toMatch(/^\/x\/state\/toolsift\/learning\/team-[0-9a-f]{8}\.json$/);
    expect(defaultLearningFile("/other/team.json", { XDG_STATE_HOME: "/x/state" })).not.toBe(a);
    expect(defaultLearningFile("/etc/gw/team.json", {})).toMatch(
      /\.local\/state\/toolsift\/learning\/team-/,
    );
  });
});
