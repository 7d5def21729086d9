// The name-fit step: in a short query, name words the query did not ask for count against a tool,
// by how telling each is among names (issue 26).
import { describe, expect, it, vi } from "vitest";
import { deferredTool as tool } from "../../../test/fixtures/deferred-tool.js";
import { editedSnapshots, snapshotSection, termRowEdits } from "../../../test/snapshot-section.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { nameSuffix } from "../../internal/name-suffix.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { scoreFromParts } from "./hit-details.js";

// every text split, so a test can tell whether a tool's name was split for the step
const split = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock("../../text/index.js", async (importOriginal) => {
  const text = await importOriginal<typeof import("../../text/index.js")>();
  return {
    ...text,
    splitIdentifier: (value: string) => {
      split.texts.push(value);
      return text.splitIdentifier(value);
    },
  };
});

// `get` and `list` are common name words here, `validate` and `insert` are rare ones
const TOOLS = [
  tool("dns_get_records", "Get the DNS records of a domain"),
  tool("dns_validate_records", "Validate DNS records of a domain before they are applied"),
  tool("get_domain", "Get a domain"),
  tool("get_invoice", "Get an invoice"),
  tool("get_user", "Get a user"),
  tool("list_domains", "List domains"),
  tool("list_users", "List users"),
  tool("find", "Run a find query on a collection"),
  tool(
    "insert_many",
    "Insert many documents into a collection; the documents are given as an array of documents",
  ),
];

function index(nameFit?: number): ToolSearchIndex {
  const built = new ToolSearchIndex(nameFit === undefined ? undefined : { ranking: { nameFit } });
  built.addAll(TOOLS);
  return built;
}

describe("name fit", () => {
  it("puts the tool whose name holds the asked words and little else first", () => {
    // without the step, the tool saying "documents" three times outscores the one named `find`
    expect(index(0).rank("find documents", 2)[0]).toBe("insert_many");
    expect(index().rank("find documents", 2)[0]).toBe("find");
  });

  it("weighs an unasked name word by its rarity among names: a common verb costs less", () => {
    // the descriptions tie them; the rarer `validate` is the more specific claim
    const ranked = index().search("records dns", { limit: 2, explain: true }).hits;
    expect(ranked.map((hit) => hit.name)).toEqual(["dns_get_records", "dns_validate_records"]);
    const [get, validate] = ranked.map((hit) => hit.scoreParts?.nameFit ?? 1);
    expect(get).toBeGreaterThan(validate as number);
    expect(validate).toBeLessThan(1);
  });

  it("leaves a name the query asks for whole at full score, and explains the factor", () => {
    const hits = index().search("dns validate records", { limit: 3, explain: true }).hits;
    expect(hits[0]?.name).toBe("dns_validate_records");
    expect(hits[0]?.scoreParts?.nameFit).toBe(1);
    for (const hit of hits) {
      const parts = hit.scoreParts;
      if (parts === undefined) throw new Error(`${hit.name} has no score parts`);
      expect(scoreFromParts(parts)).toBeCloseTo(hit.score, 3);
    }
  });

  it("leaves requests of more than four words as they were", () => {
    const request = "please find the documents stored in the orders collection for me today";
    const withFit = index().search(request, { limit: 5 }).hits;
    const without = index(0).search(request, { limit: 5 }).hits;
    expect(withFit.map((hit) => [hit.name, hit.score])).toEqual(
      without.map((hit) => [hit.name, hit.score]),
    );
    expect(withFit[0]?.scoreParts).toBeUndefined();
  });

  it("ranks the same first hit whether one hit or ten are asked for", () => {
    for (const query of ["find documents", "records dns", "domain"]) {
      expect(index().rank(query, 1)).toEqual(index().rank(query, 10).slice(0, 1));
    }
  });
});

function restored(from: readonly ToolDefinition[], snapshot: Uint8Array) {
  const warnings: string[] = [];
  const loaded = new ToolSearchIndex({ snapshot, onWarning: (message) => warnings.push(message) });
  loaded.addAll(from);
  return { index: loaded, warnings };
}

// short queries (the step applies), some naming a whole name, one a request it leaves alone
const QUERIES = [
  "find documents",
  "records dns",
  "dns validate records",
  "domain",
  "get user",
  "list",
  "insert documents into a collection please",
];

/** Each query's ranking and explained hits (the name-fit factor is in each hit's score parts). */
function answers(from: ToolSearchIndex): unknown[] {
  return QUERIES.map((query) => [
    from.rank(query, 10),
    from.search(query, { limit: 5, cut: false, explain: true }),
  ]);
}

/** The name words the step holds for each live tool, by name. */
function wordsByName(from: ToolSearchIndex): Record<string, number[]> {
  const inner = from as unknown as {
    indexed: { liveIds(): number[]; tools: ToolDefinition[] };
    keyword: { nameWords: { of(doc: number): Int32Array } };
  };
  const words: Record<string, number[]> = {};
  for (const id of inner.indexed.liveIds()) {
    words[(inner.indexed.tools[id] as ToolDefinition).name] = [...inner.keyword.nameWords.of(id)];
  }
  return words;
}

/**
 * The texts split since `from` that are a tool's name of several words after its namespace (a
 * one-word name is also a query word, which the planner splits).
 */
function namesSplit(from: number): string[] {
  const suffixes = new Set(TOOLS.map((item) => nameSuffix(item.name)));
  return split.texts.slice(from).filter((text) => text.includes("_") && suffixes.has(text));
}

/**
 * Short queries that are no tool's whole name: the phrase bonus confirms a name it matches by
 * splitting it (`name-lookup.ts`), which is not this step.
 */
const SHORT = ["find documents", "records dns", "domain", "list", "validate records", "user"];

function explained(from: ToolSearchIndex): unknown[] {
  return SHORT.map((query) => from.search(query, { limit: 5, cut: false, explain: true }).hits);
}

describe("name fit in a snapshot", () => {
  it("carries every live tool's name words, one row each, as a build splits them", () => {
    const snapshot = index().exportSnapshot();
    const rows = [...snapshotSection(snapshot, "nameWords")];
    const built = wordsByName(index());
    // `get_user`: `get` and `user`; `find`: one word
    expect(built.get_user).toHaveLength(2);
    expect(built.find).toHaveLength(1);
    const saved: Record<string, number[]> = {};
    for (let at = 0; at < rows.length; at += 2 + (rows[at + 1] as number)) {
      const name = (TOOLS[rows[at] as number] as ToolDefinition).name;
      saved[name] = rows.slice(at + 2, at + 2 + (rows[at + 1] as number));
    }
    expect(saved).toEqual(built);
    const { index: loaded, warnings } = restored(TOOLS, snapshot);
    expect(warnings).toEqual([]);
    expect(wordsByName(loaded)).toEqual(built);
    expect(loaded.exportSnapshot()).toEqual(snapshot);
  });

  it("ranks as built after a restore that splits no tool's name", () => {
    const snapshot = index().exportSnapshot();
    const { index: loaded } = restored(TOOLS, snapshot);
    let start = split.texts.length;
    const fromSnapshot = explained(loaded);
    expect(namesSplit(start)).toEqual([]);
    expect(JSON.stringify(fromSnapshot)).toContain('"nameFit":');
    const built = index();
    start = split.texts.length;
    expect(explained(built)).toEqual(fromSnapshot);
    // a build splits the names of the tools the step reads, each once
    const once = namesSplit(start);
    expect(once).toContain("dns_get_records");
    expect(new Set(once).size).toBe(once.length);
    expect(answers(loaded)).toEqual(answers(index()));
  });

  it("splits only the names of tools added after a restore, into a freed id or a new one", () => {
    const snapshot = index().exportSnapshot();
    const added = [
      tool("validate_domain", "Validate a domain"),
      tool("find_one", "Find one document in a collection"),
    ];
    const changes = (target: ToolSearchIndex) => {
      // the first added tool takes the freed id, the second a new one
      target.remove("get_invoice");
      for (const item of added) target.add(item);
    };
    for (const usedFirst of [false, true]) {
      const { index: loaded } = restored(TOOLS, snapshot);
      if (usedFirst) answers(loaded);
      changes(loaded);
      const reference = index();
      changes(reference);
      const start = split.texts.length;
      const fromSnapshot = explained(loaded);
      // a restored tool's words are still read from the snapshot
      expect(namesSplit(start)).toEqual([]);
      expect(fromSnapshot).toEqual(explained(reference));
      expect(answers(loaded), `used first: ${usedFirst}`).toEqual(answers(reference));
      expect(wordsByName(loaded)).toEqual(wordsByName(reference));
    }
  });

  it("rebuilds with a warning when the rows are malformed behind a valid checksum", () => {
    const snapshot = index().exportSnapshot();
    const edits = termRowEdits({
      "a negative term other than -1": (rows) => {
        rows[2] = -2;
      },
    });
    const expected = answers(index());
    for (const [problem, bytes] of editedSnapshots(snapshot, "nameWords", edits)) {
      const { index: loaded, warnings } = restored(TOOLS, bytes);
      expect(warnings, problem).toHaveLength(1);
      expect(warnings[0], problem).toMatch(/its name words/);
      expect(answers(loaded), problem).toEqual(expected);
    }
  });
});
