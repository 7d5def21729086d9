import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import type { ToolDefinition } from "../catalog/index.js";
import { loadCatalogPaths } from "../catalog/node.js";
import { HASH_SEED } from "./store/piece-table.js";
import { checksum, SNAPSHOT_FORMAT } from "./store/snapshot-format.js";
import { ToolSearchIndex } from "./tool-search-index.js";

function tool(name: string, description: string, server?: string): ToolDefinition {
  return {
    name,
    description,
    ...(server ? { server } : {}),
    inputSchema: {
      type: "object",
      properties: { repo: { type: "string", description: "Repository name" } },
    },
  };
}

const TOOLS: ToolDefinition[] = [
  tool("mcp__github__create_issue", "Create a new issue in a GitHub repository", "github"),
  tool("mcp__github__list_issues", "List issues in a GitHub repository", "github"),
  tool("mcp__gitlab__create_issue", "Create a new issue in a GitLab project", "gitlab"),
  tool("mcp__slack__send_message", "Send a message to a Slack channel", "slack"),
  tool("mcp__slack__list_channels", "List the channels of a Slack workspace", "slack"),
  tool("screen_shot", "Take a screenshot of the current page"),
  tool("read_file", "Read the contents of a file from disk"),
];

const QUERIES = [
  "create a github issue",
  "issue",
  "send slack message",
  "screenshot",
  "server:github list",
  "/issue$/",
  "read_file",
  "fle",
  "channels -slack",
];

function built(tools: readonly ToolDefinition[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  index.addAll(tools);
  return index;
}

function loaded(
  tools: readonly ToolDefinition[],
  snapshot: Uint8Array,
): { index: ToolSearchIndex; warnings: string[] } {
  const warnings: string[] = [];
  const index = new ToolSearchIndex({ snapshot, onWarning: (message) => warnings.push(message) });
  index.addAll(tools);
  return { index, warnings };
}

function answers(index: ToolSearchIndex, queries: readonly string[]): unknown[] {
  return queries.map((query) => [
    index.rank(query, 10),
    index.search(query, { limit: 5, explain: true }),
  ]);
}

/** A snapshot's JSON header and where its sections start, to edit a section by hand. */
function layoutOf(snapshot: Uint8Array): {
  header: { sections: Record<string, [string, number, number]> };
  bodyStart: number;
} {
  const headerLength = new DataView(snapshot.buffer).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(snapshot.subarray(16, 16 + headerLength)));
  return { header, bodyStart: (16 + headerLength + 7) & ~7 };
}

describe("index snapshots", () => {
  it("loads to the same answers as a build, without a warning", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    const { index, warnings } = loaded(TOOLS, snapshot);
    expect(warnings).toEqual([]);
    // what a restore leaves for later (the named-term buckets) is saved as it was read
    expect(index.exportSnapshot()).toEqual(snapshot);
    expect(answers(index, QUERIES)).toEqual(answers(built(TOOLS), QUERIES));
    // the loaded index keeps working as an index: add, remove, replace
    const extra = tool("delete_issue", "Delete an issue from a GitHub repository", "github");
    for (const target of [index, built(TOOLS)]) {
      target.add(extra);
      target.remove("mcp__gitlab__create_issue");
    }
    const reference = built(TOOLS);
    reference.add(extra);
    reference.remove("mcp__gitlab__create_issue");
    index.add(extra);
    index.remove("mcp__gitlab__create_issue");
    expect(answers(index, QUERIES)).toEqual(answers(reference, QUERIES));
  });

  it("makes a restored term's posting list when it is first read, and all before a change", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    const listsOf = (index: ToolSearchIndex) =>
      (index as unknown as { indexed: { store: { lists: Uint32Array[] } } }).indexed.store.lists;
    const made = (index: ToolSearchIndex) => listsOf(index).filter((list) => list.length > 0);
    const { index: read } = loaded(TOOLS, snapshot);
    // a restore makes no list: a search reads the lists of a few terms
    expect(made(read)).toEqual([]);
    expect(answers(read, ["issue"])).toEqual(answers(built(TOOLS), ["issue"]));
    const afterSearch = made(read).length;
    expect(afterSearch).toBeGreaterThan(0);
    expect(afterSearch).toBeLessThan(listsOf(read).length / 2);
    // a change first, no list read yet: every list is made before it writes any
    const extra = tool("delete_issue", "Delete an issue from a GitHub repository", "github");
    const reference = built(TOOLS);
    const { index: changed } = loaded(TOOLS, snapshot);
    for (const target of [changed, reference]) {
      target.add(extra);
      target.remove("mcp__github__list_issues");
    }
    expect(answers(changed, QUERIES)).toEqual(answers(reference, QUERIES));
  });

  it("keeps the hash basis it was saved with in a process whose basis differs", async () => {
    // a fresh copy of the modules draws another random basis, as another process would
    vi.resetModules();
    const other = await import("./tool-search-index.js");
    expect((await import("./store/piece-table.js")).HASH_SEED).not.toBe(HASH_SEED);
    const source = new other.ToolSearchIndex();
    source.addAll(TOOLS);
    source.remove("mcp__github__list_issues");
    const snapshot = source.exportSnapshot();
    const tools = TOOLS.filter((item) => item.name !== "mcp__github__list_issues");
    const { index, warnings } = loaded(tools, snapshot);
    expect(warnings).toEqual([]);
    expect(index.exportSnapshot()).toEqual(snapshot);
    const reference = built(tools);
    expect(answers(index, QUERIES)).toEqual(answers(reference, QUERIES));
    // new terms and names are filed with the saved basis, so lookups keep finding them
    const extra = [
      tool("mcp__jira__open_ticket", "Open a ticket in Jira", "jira"),
      tool("Screenshot_Grabber", "Grab screenshots of windows"),
    ];
    for (const target of [index, reference]) {
      for (const item of extra) target.add(item);
      target.remove("read_file");
    }
    const more = [...QUERIES, "open_ticket", "screenshot_grabber", "ticket jira", "grab"];
    expect(answers(index, more)).toEqual(answers(reference, more));
  });

  it("round-trips an index with removed tools and free ids", () => {
    const source = built(TOOLS);
    source.remove("mcp__github__list_issues");
    const snapshot = source.exportSnapshot();
    const tools = TOOLS.filter((item) => item.name !== "mcp__github__list_issues");
    const { index, warnings } = loaded(tools, snapshot);
    expect(warnings).toEqual([]);
    expect(answers(index, QUERIES)).toEqual(answers(source, QUERIES));
    const extra = tool("list_pull_requests", "List pull requests in a repository", "github");
    index.add(extra);
    source.add(extra);
    expect(answers(index, QUERIES)).toEqual(answers(source, QUERIES));
  });

  it("rebuilds with a warning naming why when the tools or settings differ", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    const changed = TOOLS.map((item, position) =>
      position === 0 ? { ...item, description: "Open a ticket" } : item,
    );
    const other = loaded(changed, snapshot);
    expect(other.warnings).toHaveLength(1);
    expect(other.warnings[0]).toMatch(/other tools/);
    expect(answers(other.index, QUERIES)).toEqual(answers(built(changed), QUERIES));
    const warnings: string[] = [];
    const tuned = new ToolSearchIndex({
      snapshot,
      ranking: { k1: 0.9 },
      onWarning: (message) => warnings.push(message),
    });
    tuned.addAll(TOOLS);
    expect(warnings[0]).toMatch(/ranking settings/);
  });

  it("is tied to everything the index reads of a tool, and only to that", () => {
    const rich: ToolDefinition = {
      name: "mcp__github__create_issue",
      title: "Create issue",
      description: "Create a new issue in a GitHub repository",
      server: "github",
      inputSchema: {
        type: "object",
        properties: {
          repo: { type: "string", description: "Repository name" },
          state: { type: "string", enum: ["open", "closed"] },
        },
        required: ["repo"],
      },
    };
    const tools = [rich, ...TOOLS.slice(1)];
    const snapshot = built(tools).exportSnapshot();
    const schema = rich.inputSchema as { properties: Record<string, Record<string, unknown>> };
    const withProperty = (name: string, value: Record<string, unknown>): ToolDefinition => ({
      ...rich,
      inputSchema: { ...rich.inputSchema, properties: { ...schema.properties, [name]: value } },
    });
    const { title: _title, ...untitled } = rich;
    const read: Record<string, ToolDefinition> = {
      "a property description": withProperty("repo", { type: "string", description: "Repo" }),
      "an enum value": withProperty("state", { type: "string", enum: ["open", "merged"] }),
      "the title": { ...rich, title: "Open issue" },
      "an annotations title": { ...untitled, annotations: { title: "New issue" } },
      "a property name": withProperty("repository", { type: "string" }),
      "the server": { ...rich, server: "gh" },
      "the keywords": { ...rich, keywords: ["ticket"] },
      // the companion facts (finders) read it, and a snapshot carries them
      "the required list": { ...rich, inputSchema: { ...rich.inputSchema, required: [] } },
      // the destructive step reads it, and a snapshot carries its tables
      "the destructive hint": { ...rich, annotations: { destructiveHint: true } },
    };
    for (const [change, variant] of Object.entries(read)) {
      const changed = [variant, ...tools.slice(1)];
      const { index, warnings } = loaded(changed, snapshot);
      expect(warnings, change).toHaveLength(1);
      expect(warnings[0], change).toMatch(/other tools/);
      expect(answers(index, QUERIES), change).toEqual(answers(built(changed), QUERIES));
    }
    // what the index never reads leaves it as built: the snapshot is used
    const unread: Record<string, ToolDefinition> = {
      "a property type": withProperty("repo", { type: "number", description: "Repository name" }),
      "an annotation hint": { ...rich, annotations: { readOnlyHint: true } },
      "a destructive hint of false": { ...rich, annotations: { destructiveHint: false } },
    };
    for (const [change, variant] of Object.entries(unread)) {
      const changed = [variant, ...tools.slice(1)];
      const { index, warnings } = loaded(changed, snapshot);
      expect(warnings, change).toEqual([]);
      expect(answers(index, QUERIES), change).toEqual(answers(built(changed), QUERIES));
    }
    expect(loaded(tools, snapshot).warnings).toEqual([]);
  });

  it("rebuilds a snapshot of another format with a warning naming the format", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    // 2: before the hashed tables were saved; 3: before the companion facts were; 4: before the
    // destructive step's tables were; 5: before name fit's name words were; then one this
    // toolsift does not know
    for (const format of [1, 2, 3, 4, 5, SNAPSHOT_FORMAT + 1]) {
      const other = snapshot.slice();
      new DataView(other.buffer).setUint32(4, format, true);
      const { index, warnings } = loaded(TOOLS, other);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        `its format is ${format}, this toolsift reads ${SNAPSHOT_FORMAT}`,
      );
      expect(answers(index, QUERIES)).toEqual(answers(built(TOOLS), QUERIES));
    }
  });

  it("rebuilds when a saved hash table is malformed, even behind a valid checksum", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    const { header, bodyStart } = layoutOf(snapshot);
    const edits: Record<string, (slots: Int32Array) => void> = {
      "an id out of range": (slots) => {
        slots[slots.findIndex((id) => id >= 0)] = 1_000_000;
      },
      "an id filed twice": (slots) => {
        const first = slots.findIndex((id) => id >= 0);
        slots[slots.indexOf(-1)] = slots[first] as number;
      },
      // a table with no empty slot would make a missed lookup probe forever
      "no empty slot": (slots) => {
        slots.fill(0);
      },
    };
    for (const table of ["termsByTextSlots", "namesByPhraseSlots"]) {
      for (const [problem, edit] of Object.entries(edits)) {
        const bytes = snapshot.slice();
        const [, offset, count] = header.sections[table] as [string, number, number];
        edit(new Int32Array(bytes.buffer, bodyStart + offset, count));
        new DataView(bytes.buffer).setUint32(12, checksum(bytes, 16), true);
        const { index, warnings } = loaded(TOOLS, bytes);
        expect(warnings, `${table}: ${problem}`).toHaveLength(1);
        expect(warnings[0], problem).toMatch(`its table "${table.replace("Slots", "")}"`);
        expect(answers(index, QUERIES)).toEqual(answers(built(TOOLS), QUERIES));
      }
    }
  });

  it("rebuilds when saved posting lists are malformed, even behind a valid checksum", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    const { header, bodyStart } = layoutOf(snapshot);
    const edits: [string, string, (items: Uint32Array) => void][] = [
      ["postings", "a posting names a tool outside the index", (items) => items.fill(7_000, 0, 1)],
      // the first list ends before it starts
      ["postingOffsets", "its posting list of term 0 is malformed", (items) => items.fill(3, 1, 2)],
    ];
    for (const [section, problem, edit] of edits) {
      const bytes = snapshot.slice();
      const [, offset, count] = header.sections[section] as [string, number, number];
      edit(new Uint32Array(bytes.buffer, bodyStart + offset, count));
      new DataView(bytes.buffer).setUint32(12, checksum(bytes, 16), true);
      const { index, warnings } = loaded(TOOLS, bytes);
      expect(warnings, section).toHaveLength(1);
      expect(warnings[0]).toContain(problem);
      expect(answers(index, QUERIES)).toEqual(answers(built(TOOLS), QUERIES));
    }
  });

  it("rebuilds cleanly from flipped bytes and truncations, never a wrong answer", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    const expected = answers(built(TOOLS), QUERIES);
    const damaged: Uint8Array[] = [];
    // a flipped bit in every stretch of the snapshot: prefix, header, each section
    const step = Math.max(1, Math.floor(snapshot.length / 97));
    for (let at = 0; at < snapshot.length; at += step) {
      const copy = snapshot.slice();
      copy[at] = (copy[at] as number) ^ (1 << (at % 8));
      damaged.push(copy);
    }
    for (const length of [0, 3, 15, 16, 40, Math.floor(snapshot.length / 2), snapshot.length - 1]) {
      damaged.push(snapshot.slice(0, length));
    }
    damaged.push(new Uint8Array([...snapshot, 0, 0, 0, 0, 0, 0, 0, 0]));
    for (const bytes of damaged) {
      const { index, warnings } = loaded(TOOLS, bytes);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^Saved search index not used: /);
      expect(answers(index, QUERIES)).toEqual(expected);
    }
  });

  it("reads a snapshot from a Buffer at an odd offset", () => {
    const snapshot = built(TOOLS).exportSnapshot();
    const pool = Buffer.alloc(snapshot.length + 3);
    pool.set(snapshot, 3);
    const { index, warnings } = loaded(TOOLS, pool.subarray(3));
    expect(warnings).toEqual([]);
    expect(answers(index, QUERIES)).toEqual(answers(built(TOOLS), QUERIES));
  });

  it("ranks the 20 real catalogs the same from a snapshot as from a build", async () => {
    const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")]);
    expect(tools.length).toBeGreaterThan(1000);
    const reference = built(tools);
    const snapshot = reference.exportSnapshot();
    const { index, warnings } = loaded(tools, snapshot);
    expect(warnings).toEqual([]);
    expect(index.exportSnapshot()).toEqual(snapshot);
    // queries from the tools' own words: every name and the first words of descriptions
    const queries = tools
      .filter((_, position) => position % 7 === 0)
      .map((item) => (item.description ?? item.name).split(/\s+/).slice(0, 4).join(" "));
    queries.push("create a github issue", "take a screenshot", "query the database");
    for (const query of queries) {
      expect(index.rank(query, 10), query).toEqual(reference.rank(query, 10));
    }
    expect(answers(index, queries.slice(0, 40))).toEqual(answers(reference, queries.slice(0, 40)));
  });
});
