// The learned field end to end: evidence from sessions → `setLearned` → ranking and explanations.
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { scoreFromParts, ToolSearchIndex } from "../search/index.js";
import { UsageEvidence } from "./usage-evidence.js";
import { UsageRecorder } from "./usage-recorder.js";

function tool(name: string, description: string): ToolDefinition {
  return { name, description, server: "github", inputSchema: { type: "object", properties: {} } };
}

const TOOLS = [
  tool("list_repositories", "List the repositories of the authenticated user"),
  tool("search_repositories", "Search GitHub repositories by keyword"),
  tool("create_repository", "Create a new repository in your account"),
  tool("delete_repository", "Delete a repository permanently"),
  tool("fork_repository", "Fork a repository to your account"),
  tool("create_issue", "Create an issue in a repository"),
  tool("list_issues", "List the issues of a repository"),
  tool("fill", "Fill an input element of the page with text"),
  tool("click", "Click an element of the page"),
  tool("navigate", "Open a URL in the browser"),
];

const QUERIES = [
  "list my repositories",
  "list repositories",
  "delete a repository",
  "my repositories",
  "show repositories I own",
  "open a new issue",
  "type into the login field",
  "search repositories",
];

function indexWith(evidence?: UsageEvidence): ToolSearchIndex {
  const index = new ToolSearchIndex();
  index.addAll(TOOLS);
  if (evidence) index.setLearned(evidence.learnedWords((name) => index.get(name)));
  return index;
}

function rankings(index: ToolSearchIndex): string[][] {
  return QUERIES.map((query) => index.rank(query, 10));
}

/**
 * One session through the recorder as the gateway drives it: searches (each seeing its hits),
 * then a call.
 */
function session(
  recorder: UsageRecorder,
  id: string,
  queries: string | string[],
  call: string,
  index: ToolSearchIndex,
): void {
  for (const query of typeof queries === "string" ? [queries] : queries) {
    const hits = index.search(query, { limit: 10, cut: false }).hits.map((hit) => hit.name);
    recorder.searched(id, query, hits);
  }
  recorder.called(id, index.get(call) as ToolDefinition);
}

describe("learned field", () => {
  it("a hostile session calling delete_repository after 1,000 searches for 'list my repositories' changes no ranking", () => {
    const plain = indexWith();
    const before = rankings(plain);
    const evidence = new UsageEvidence();
    const recorder = new UsageRecorder(evidence);
    for (let count = 0; count < 1000; count += 1) {
      session(recorder, "hostile", "list my repositories", "delete_repository", plain);
    }
    // the hostile pairs were recorded (the tool was among the hits) but count as one session
    expect(evidence.toJSON().tools.delete_repository).toBeDefined();
    expect(rankings(indexWith(evidence))).toEqual(before);
  });

  it("several hostile sessions cannot lift a tool sharing no word with the query above a strong match", () => {
    const plain = indexWith();
    const evidence = new UsageEvidence();
    const recorder = new UsageRecorder(evidence);
    // a client that searches, then finds `click` by name and calls it, from 50 sessions
    for (let count = 0; count < 50; count += 1) {
      session(recorder, `hostile-${count}`, ["list repositories", "click"], "click", plain);
    }
    const learned = indexWith(evidence);
    expect(learned.learnedWords("click").length).toBeGreaterThan(0);
    const ranked = learned.rank("list repositories", 10);
    expect(ranked[0]).toBe("list_repositories");
    expect(ranked.indexOf("click")).toBeGreaterThan(0);
  });

  it("words several sessions searched before calling a tool bring it first, shown as the learned field", () => {
    const plain = indexWith();
    expect(plain.rank("type into the login field", 3)[0]).not.toBe("fill");
    const evidence = new UsageEvidence();
    const recorder = new UsageRecorder(evidence);
    for (const id of ["s1", "s2", "s3", "s4"]) {
      session(recorder, id, ["type into the login field", "fill input"], "fill", plain);
    }
    const learned = indexWith(evidence);
    const result = learned.search("type into the login field", { explain: true });
    const first = result.hits[0];
    expect(first?.name).toBe("fill");
    const fields = (first?.explanation ?? []).filter((part) => part.field === "learned");
    expect(fields.map((part) => part.term).sort()).toEqual(["field", "login", "type"]);
    expect(first?.scoreParts?.learned).toBeGreaterThan(0);
    expect(Math.fround(scoreFromParts(first?.scoreParts as never))).toBeCloseTo(
      first?.score ?? 0,
      3,
    );
    // the learned words are not in what the model sees
    expect(first?.tool.description).toBe("Fill an input element of the page with text");
  });

  it("a request sessions repeated lifts its tool even when the tool already has the words (the whole query counts, in any order)", () => {
    const query = "repository issues";
    expect(indexWith().rank(query, 3)[0]).toBe("list_issues");
    const evidence = new UsageEvidence();
    for (const id of ["s1", "s2", "s3"]) evidence.record(query, TOOLS[5] as ToolDefinition, id);
    const learned = indexWith(evidence);
    // create_issue holds both words already, so apart they count half and do not pass list_issues
    const result = learned.search("issues of the repository", { explain: true });
    expect(result.hits[0]?.name).toBe("create_issue");
    const parts = (result.hits[0]?.explanation ?? []).filter((part) => part.field === "learned");
    expect(parts.map((part) => part.term)).toEqual(["issu repositori"]);
    expect(Math.fround(scoreFromParts(result.hits[0]?.scoreParts as never))).toBeCloseTo(
      result.hits[0]?.score ?? 0,
      3,
    );
    // another request sharing one of the words is not the recurring one
    expect(learned.rank("list issues", 3)[0]).toBe("list_issues");
  });

  it("ranks exactly as before when no evidence passed the support threshold", () => {
    const evidence = new UsageEvidence();
    evidence.record("type into the login field", TOOLS[7] as ToolDefinition, "only-one");
    expect(rankings(indexWith(evidence))).toEqual(rankings(indexWith()));
  });
});
