import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { isToolsiftError } from "../errors.js";
import { UsageEvidence } from "./usage-evidence.js";
import { UsageRecorder } from "./usage-recorder.js";

function tool(name: string, description = `Does ${name}`): ToolDefinition {
  return { name, description, inputSchema: { type: "object", properties: {} } };
}

const DAY = 86_400_000;

function clock(start = 1_000_000) {
  const state = { time: start };
  return { now: () => state.time, advance: (ms: number) => (state.time += ms) };
}

describe("UsageEvidence", () => {
  it("counts a word only once it has support from minSessions distinct sessions", () => {
    const evidence = new UsageEvidence({ minSessions: 3 });
    const fill = tool("fill");
    for (let index = 0; index < 50; index += 1)
      evidence.record("type into the login field", fill, "s1");
    evidence.record("type into the login field", fill, "s2");
    expect(evidence.learnedWords().size).toBe(0);
    evidence.record("type into the login field", fill, "s3");
    const words = evidence.learnedWords().get("fill") ?? [];
    // the words, and the whole query as one key (its words sorted)
    expect(words.map((word) => word.word).sort()).toEqual([
      "field",
      "field login type",
      "login",
      "type",
    ]);
    // stop words ("into", "the") never become evidence; stems are what search compares
    expect(words.every((word) => word.weight > 0 && word.weight < 1)).toBe(true);
  });

  it("bounds the weight below 1 however many sessions agree", () => {
    const evidence = new UsageEvidence({ minSessions: 3, maxSessionsPerWord: 1000 });
    const fill = tool("fill");
    for (let index = 0; index < 500; index += 1) evidence.record("login", fill, `s${index}`);
    const [word] = evidence.learnedWords().get("fill") ?? [];
    expect(word?.weight).toBeGreaterThan(0.99);
    expect(word?.weight).toBeLessThan(1);
  });

  it("decays old sessions: support from three sessions a half-life ago no longer counts", () => {
    const time = clock();
    const evidence = new UsageEvidence({ minSessions: 3, halfLifeDays: 10, now: time.now });
    for (const session of ["a", "b", "c"]) evidence.record("login", tool("fill"), session);
    expect(evidence.learnedWords().get("fill")?.[0]?.sessions).toBe(3);
    time.advance(10 * DAY);
    expect(evidence.learnedWords().size).toBe(0);
  });

  it("counts a session of the last day whole: three sessions still count an hour later", () => {
    const time = clock();
    const evidence = new UsageEvidence({ minSessions: 3, now: time.now });
    for (const session of ["a", "b", "c"]) evidence.record("login", tool("fill"), session);
    time.advance(DAY / 24);
    expect(
      evidence
        .learnedWords()
        .get("fill")
        ?.map((entry) => entry.word),
    ).toEqual(["login"]);
    time.advance(2 * DAY);
    expect(evidence.learnedWords().size).toBe(0);
  });

  it("keeps at most maxWordsPerTool words, dropping the least supported", () => {
    const evidence = new UsageEvidence({ minSessions: 1, maxWordsPerTool: 2 });
    const fill = tool("fill");
    for (const session of ["a", "b", "c"]) evidence.record("login", fill, session);
    for (const session of ["a", "b"]) evidence.record("password", fill, session);
    evidence.record("captcha", fill, "a");
    const words = (evidence.learnedWords().get("fill") ?? []).map((word) => word.word);
    expect(words).toEqual(["login", "password"]);
  });

  it("starts a replaced tool fresh: evidence is keyed by the tool's fingerprint", () => {
    const evidence = new UsageEvidence({ minSessions: 1 });
    evidence.record("login", tool("fill", "Fills a form field"), "a");
    const replaced = tool("fill", "Deletes every form");
    expect(evidence.learnedWords(() => replaced).size).toBe(0);
    expect(evidence.learnedWords(() => tool("fill", "Fills a form field")).size).toBe(1);
    evidence.record("wipe", replaced, "b");
    const words = evidence.learnedWords(() => replaced).get("fill") ?? [];
    expect(words.map((word) => word.word)).toEqual(["wipe"]);
  });

  it("round-trips through JSON, removes one word and erases everything", () => {
    // one fixed clock: weights decay, so two readings a moment apart differ in the last digits
    const { now } = clock();
    const evidence = new UsageEvidence({ minSessions: 2, now });
    for (const session of ["a", "b"])
      evidence.record("open new issue", tool("create_issue"), session);
    const copy = new UsageEvidence({ minSessions: 2, now });
    copy.load(JSON.parse(JSON.stringify(evidence.toJSON())));
    expect(copy.learnedWords()).toEqual(evidence.learnedWords());
    // session ids are stored hashed, never as given
    expect(JSON.stringify(copy.toJSON())).not.toMatch(/"a"|"b"/);
    expect((copy.learnedWords().get("create_issue") ?? []).map((word) => word.word)).toEqual([
      "issu",
      "issu new open",
      "new",
      "open",
    ]);
    // removing a word removes the whole queries that held it too: it stops counting for the tool
    expect(copy.removeWord("create_issue", "open")).toBe(true);
    expect((copy.learnedWords().get("create_issue") ?? []).map((word) => word.word)).toEqual([
      "issu",
      "new",
    ]);
    copy.erase();
    expect(copy.learnedWords().size).toBe(0);
  });

  it("rejects a malformed snapshot naming where it is wrong", () => {
    const evidence = new UsageEvidence();
    const error = (() => {
      try {
        evidence.load({
          version: 1,
          tools: { fill: { fingerprint: "x", words: { login: { s: "no" } } } },
        });
      } catch (caught) {
        return caught;
      }
    })();
    expect(isToolsiftError(error) && error.code).toBe("invalid_option");
    expect(String((error as Error).message)).toContain('tools["fill"].words["login"]');
  });

  it("bounds its size: past maxEntries the oldest session entries go", () => {
    const time = clock();
    const evidence = new UsageEvidence({ minSessions: 1, maxEntries: 100, now: time.now });
    for (let index = 0; index < 500; index += 1) {
      time.advance(1);
      evidence.record(`word${index}`, tool(`tool_${index % 50}`), `s${index}`);
    }
    let entries = 0;
    for (const entry of Object.values(evidence.toJSON().tools))
      for (const sessions of Object.values(entry.words)) entries += Object.keys(sessions).length;
    expect(entries).toBeLessThanOrEqual(100);
    expect(evidence.toJSON().tools.tool_49).toBeDefined();
  });

  it("rejects an option that is not a positive number", () => {
    expect(() => new UsageEvidence({ minSessions: 0 })).toThrow(
      /learning.minSessions must be a positive number/,
    );
  });
});

describe("UsageRecorder", () => {
  it("records a call of a tool the session's last search returned, within the window", () => {
    const time = clock();
    const evidence = new UsageEvidence({ minSessions: 1 });
    const recorder = new UsageRecorder(evidence, { windowMs: 1000, now: time.now });
    recorder.searched("s1", "open a new issue", ["create_issue", "list_issues"]);
    expect(recorder.called("s1", tool("delete_repository"))).toBe(0);
    expect(recorder.called("s2", tool("create_issue"))).toBe(0);
    time.advance(2000);
    expect(recorder.called("s1", tool("create_issue"))).toBe(0);
    recorder.searched("s1", "open a new issue", ["create_issue"]);
    expect(recorder.called("s1", tool("create_issue"))).toBe(1);
    expect([...evidence.learnedWords().keys()]).toEqual(["create_issue"]);
  });

  it("credits the rephrasings before the search that found the tool, not searches already resolved", () => {
    const evidence = new UsageEvidence({ minSessions: 1 });
    const recorder = new UsageRecorder(evidence);
    recorder.searched("s1", "list issues", ["list_issues"]);
    recorder.called("s1", tool("list_issues"));
    recorder.searched("s1", "type into the login field", ["click"]);
    recorder.searched("s1", "fill input", ["fill"]);
    expect(recorder.called("s1", tool("fill"))).toBe(2);
    const words = (evidence.learnedWords().get("fill") ?? []).map((word) => word.word).sort();
    expect(words).toEqual([
      "field",
      "field login type",
      "fill",
      "fill input",
      "input",
      "login",
      "type",
    ]);
  });
});
