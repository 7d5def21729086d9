import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eraseLearningFile, readLearningFile, writeLearningFile } from "./learning-file.js";
import { UsageEvidence } from "./usage-evidence.js";

const tool = { name: "fill", description: "Fill a field", inputSchema: { type: "object" } };

describe("learning file", () => {
  it("writes atomically, reads back what it wrote and erases it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-learning-"));
    const file = path.join(dir, "nested", "learning.json");
    expect(readLearningFile(file)).toBeUndefined();
    // one fixed clock: weights decay, so two readings a moment apart differ in the last digits
    const now = () => 1_000;
    const evidence = new UsageEvidence({ minSessions: 1, now });
    evidence.record("type into the login field", tool, "s1");
    writeLearningFile(file, evidence.toJSON());
    // no temporary file is left beside it
    expect(readdirSync(path.dirname(file))).toEqual(["learning.json"]);
    const copy = new UsageEvidence({ minSessions: 1, now });
    copy.load(readLearningFile(file));
    expect(copy.learnedWords()).toEqual(evidence.learnedWords());
    expect(eraseLearningFile(file)).toBe(true);
    expect(eraseLearningFile(file)).toBe(false);
  });

  it("names the file and the fix when it is not JSON", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-learning-"));
    const file = path.join(dir, "learning.json");
    writeFileSync(file, "{ half");
    expect(() => readLearningFile(file)).toThrow(/learning\.json is not JSON .*erase it/);
  });
});
