// The learned field end to end: evidence from sessions → `setLearned` → ranking and explanations.
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { scoreFromParts, ToolSearchIndex } from "../search/index.js";
import { isQueryKey, queryKey } from "../text/index.js";
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

function indexWith(
  evidence?: UsageEvidence,
  tools: readonly ToolDefinition[] = TOOLS,
  keys: "with keys" | "words only" = "with keys",
): ToolSearchIndex {
  const index = new ToolSearchIndex();
  index.addAll(tools);
  if (evidence === undefined) return index;
  const learned = evidence.learnedWords((name) => index.get(name));
  // the same evidence without its query keys: the words apart, as before recurring requests
  if (keys === "words only")
    for (const [name, entries] of learned)
      learned.set(
        name,
        entries.filter((entry) => !isQueryKey(entry.word)),
      );
  index.setLearned(learned);
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
    // a wording no session used: only the words two requests shared can bring `fill` up
    const query = "type in the login field of the page";
    expect(plain.rank(query, 3)[0]).not.toBe("fill");
    const evidence = new UsageEvidence();
    const recorder = new UsageRecorder(evidence);
    for (const id of ["s1", "s2", "s3", "s4"]) {
      session(recorder, id, ["type into the login field", "fill input"], "fill", plain);
      session(
        recorder,
        `${id}-b`,
        ["type my name in the login field", "fill input"],
        "fill",
        plain,
      );
    }
    const learned = indexWith(evidence);
    const result = learned.search(query, { explain: true });
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

  it("a key that only ties its words (in rounding) leaves the words as the explanation", () => {
    // sessions 17, 51 or 68 ms apart gave weights whose parts summed a hair under the key's
    for (const gap of [17, 51, 68]) {
      let now = 1_000_000;
      const evidence = new UsageEvidence({ now: () => now });
      for (const id of ["s1", "s2", "s3", "s4"]) {
        evidence.record("type into the login field", TOOLS[7] as ToolDefinition, id);
        // a second request with the same words, so they count apart (`MIN_REQUESTS`)
        evidence.record("type the login field name", TOOLS[7] as ToolDefinition, id);
        now += gap;
      }
      const result = indexWith(evidence).search("type into the login field", { explain: true });
      const parts = (result.hits[0]?.explanation ?? []).filter((part) => part.field === "learned");
      expect(parts.map((part) => part.term).sort(), `${gap} ms`).toEqual([
        "field",
        "login",
        "type",
      ]);
    }
  });

  it("the words of one request, however many sessions repeat it, move no other request; two requests sharing a word do", () => {
    const plain = indexWith();
    const query = "click the button";
    const evidence = new UsageEvidence();
    // "click" is this request's context, not what create_issue does
    teach(
      evidence,
      "open a new issue about the broken click handler",
      TOOLS[5] as ToolDefinition,
      ids("user", 5),
    );
    expect(indexWith(evidence).rank(query, 10)).toEqual(plain.rank(query, 10));
    expect(rankings(indexWith(evidence)).slice(1)).toEqual(rankings(plain).slice(1));
    // a second request that also led to create_issue with "click": the word now counts apart
    teach(
      evidence,
      "report that a click on save does nothing",
      TOOLS[5] as ToolDefinition,
      ids("other", 5),
    );
    expect(indexWith(evidence).rank(query, 10)).toContain("create_issue");
    expect(indexWith(evidence).rank(query, 10)[0]).toBe("click");
  });

  it("ranks exactly as before when no evidence passed the support threshold", () => {
    const evidence = new UsageEvidence();
    evidence.record("type into the login field", TOOLS[7] as ToolDefinition, "only-one");
    expect(rankings(indexWith(evidence))).toEqual(rankings(indexWith()));
  });
});

const FILE_TOOLS = [
  tool("get_file_text", "Return the whole text of a file"),
  tool("write_file", "Create a new file or overwrite an existing file with new content"),
  tool("config_helper", "Read or change settings of the server configuration"),
  tool("search_files", "Recursively look for paths whose names match a glob pattern"),
];

function teach(evidence: UsageEvidence, query: string, call: ToolDefinition, sessions: string[]) {
  for (const id of sessions) evidence.record(query, call, id);
}

function ids(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, at) => `${prefix}-${at}`);
}

describe("recurring requests", () => {
  it("a request several sessions repeated lifts its tool past a weak first hit, never past a strong one", () => {
    // "open the page": `navigate` is the first hit, and only a weak one
    const weak = "open the page";
    expect(indexWith().search(weak, { limit: 1 }).hits[0]?.confidence?.level).toBe("weak");
    const evidence = new UsageEvidence();
    teach(evidence, weak, TOOLS[5] as ToolDefinition, ids("user", 3));
    const learned = indexWith(evidence);
    const result = learned.search(weak, { explain: true, cut: false, limit: 3 });
    expect(result.hits[0]?.name).toBe("create_issue");
    const first = result.hits[0];
    const parts = (first?.explanation ?? []).filter((part) => part.field === "learned");
    expect(parts.map((part) => part.term)).toEqual([queryKey(weak)]);
    expect(Math.fround(scoreFromParts(first?.scoreParts as never))).toBeCloseTo(
      first?.score ?? 0,
      3,
    );
    // the same evidence without its query key (words apart) does not lift it
    const wordsOnly = indexWith(evidence, TOOLS, "words only");
    expect(wordsOnly.rank(weak, 1)).toEqual(["navigate"]);
    // a tool the caller's filter hides is not lifted, nor one the query excludes
    const hidden = { filter: (candidate: ToolDefinition) => candidate.name !== "create_issue" };
    expect(learned.search(weak, hidden).hits[0]?.name).toBe("navigate");
    expect(learned.search(`${weak} -issue`).hits[0]?.name).toBe("navigate");

    // a strong lexical first hit stays first, however many sessions repeat the request
    const strong = "Read the contents of config/settings.yaml";
    const plain = indexWith(undefined, FILE_TOOLS);
    const before = plain.search(strong, { limit: 4, cut: false });
    expect(before.hits[0]?.name).toBe("config_helper");
    expect(before.hits[0]?.confidence?.level).toBe("strong");
    const taught = new UsageEvidence();
    teach(taught, strong, FILE_TOOLS[0] as ToolDefinition, ids("user", 50));
    expect(indexWith(taught, FILE_TOOLS).rank(strong, 1)).toEqual(["config_helper"]);
  });

  it("50 hostile sessions repeating a request move no strong or complete lexical match, for that request or any other", () => {
    const plain = indexWith();
    const evidence = new UsageEvidence();
    const click = TOOLS[8] as ToolDefinition;
    // list_repositories holds every word of these, one in its name: the exception stops there
    teach(evidence, "list my repositories", click, ids("hostile", 50));
    teach(evidence, "list repositories", TOOLS[3] as ToolDefinition, ids("hostile", 50));
    // list_repositories lacks "show" and "own", but it is a strong match: it stays first
    teach(evidence, "show the repositories I own", click, ids("hostile", 50));
    const learned = indexWith(evidence);
    expect(learned.rank("list my repositories", 10)[0]).toBe("list_repositories");
    expect(learned.rank("list repositories", 10)[0]).toBe("list_repositories");
    expect(learned.rank("show the repositories I own", 1)).toEqual(["list_repositories"]);
    // any other request ranks as the same evidence without its query keys ranks it: a key moves
    // its own request only, and a strong lexical first hit stays first
    const wordsOnly = indexWith(evidence, TOOLS, "words only");
    const taught = new Set(
      ["list my repositories", "list repositories", "show the repositories I own"].map(queryKey),
    );
    for (const query of [
      ...QUERIES,
      "show my repositories",
      "repositories I own",
      "show repositories",
    ]) {
      if (taught.has(queryKey(query))) continue;
      expect(learned.rank(query, 10), query).toEqual(wordsOnly.rank(query, 10));
      const first = plain.search(query, { limit: 1 }).hits[0];
      if (first?.confidence?.level === "strong")
        expect(learned.rank(query, 1)[0], query).toBe(first.name);
    }
  });

  it("a complete lexical match below the first hit still blocks the lift", () => {
    const profiles = [
      tool("user_profile", "User profile: the profile of a user, with the picture and fields"),
      tool(
        "get_member",
        "Get one member of an organization with the roles, teams, groups, permissions, the profile and the user account settings of that member",
      ),
      tool("print_page", "Print the page"),
    ];
    const plain = indexWith(undefined, profiles);
    const query = "get user profile";
    const before = plain.search(query, { limit: 2 }).hits;
    // the first hit lacks "get"; the second holds every word, one in its name
    expect(before.map((hit) => [hit.name, hit.confidence?.coverage === 1])).toEqual([
      ["user_profile", false],
      ["get_member", true],
    ]);
    const evidence = new UsageEvidence();
    teach(evidence, query, profiles[2] as ToolDefinition, ids("hostile", 50));
    expect(indexWith(evidence, profiles).rank(query, 1)).toEqual(["user_profile"]);
  });

  it("when sessions called different tools after one request, the better supported leads", () => {
    const evidence = new UsageEvidence();
    const query = "open the page";
    // neither tool holds a word of the request: only their support orders them
    teach(evidence, query, TOOLS[4] as ToolDefinition, ids("hostile", 3));
    teach(evidence, query, TOOLS[5] as ToolDefinition, ids("user", 8));
    expect(indexWith(evidence).rank(query, 2)).toEqual(["create_issue", "fork_repository"]);
  });
});
