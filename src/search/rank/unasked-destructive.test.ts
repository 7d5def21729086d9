import path from "node:path";
import { describe, expect, it } from "vitest";
import { SAFE, VM_TOOLS } from "../../../test/fixtures/vm-tools.js";
import { lazyTools } from "../../../test/lazy-tools.js";
import { sharedDir } from "../../../test/shared-dir.js";
import { editedSnapshots, termRowEdits } from "../../../test/snapshot-section.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { loadCatalogPaths } from "../../catalog/node.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { scoreFromParts } from "./hit-details.js";

const tools = VM_TOOLS;
const safe = SAFE;

function first(index: ToolSearchIndex, query: string): string | undefined {
  return index.search(query, { limit: 5, cut: false }).hits[0]?.name;
}

describe("destructive tools the query does not ask for", () => {
  it("rank below their safer siblings when the query names only the object", () => {
    const index = new ToolSearchIndex();
    index.addAll(tools);
    expect(first(index, "vm snapshot")).not.toBe("vm_deleteSnapshot");
    // the rule off: the delete tool's longer text about snapshots wins
    const off = new ToolSearchIndex({ ranking: { unaskedDestructive: 1 } });
    off.addAll(tools);
    expect(first(off, "vm snapshot")).toBe("vm_deleteSnapshot");
  });

  it("keep their place when the query asks for the act, by its word or a synonym", () => {
    const index = new ToolSearchIndex();
    index.addAll(tools);
    expect(first(index, "delete vm snapshot")).toBe("vm_deleteSnapshot");
    expect(first(index, "remove the snapshot")).toBe("vm_deleteSnapshot");
  });

  it("give score parts that still add up, with the factor as `unasked`", () => {
    const index = new ToolSearchIndex();
    index.addAll(tools);
    const hits = index.search("vm snapshot", { limit: 5, cut: false, explain: true }).hits;
    const lowered = hits.find((hit) => hit.name === "vm_deleteSnapshot");
    expect(lowered?.scoreParts?.unasked).toBe(0.85);
    for (const hit of hits) {
      const parts = hit.scoreParts as NonNullable<typeof hit.scoreParts>;
      expect(Math.abs(scoreFromParts(parts) - hit.score)).toBeLessThanOrEqual(1e-3);
    }
  });

  it("follow the catalog as tools come and go: without destructive tools nothing is lowered", () => {
    const index = new ToolSearchIndex();
    index.addAll(tools);
    index.remove("vm_deleteBackup");
    index.remove("vm_deleteSnapshot");
    index.add({ ...(tools[0] as ToolDefinition), annotations: safe });
    const off = new ToolSearchIndex({ ranking: { unaskedDestructive: 1 } });
    off.addAll([...tools.slice(1, 3), tools[4] as ToolDefinition]);
    off.add({ ...(tools[0] as ToolDefinition), annotations: safe });
    expect(index.rank("vm snapshot", 5)).toEqual(off.rank("vm snapshot", 5));
    expect(first(index, "vm snapshot")).toBe("vm_deleteSnapshot");
  });
});

describe("destructive tools on the 20 real catalogs", () => {
  it("gives the object alone a safe tool first and the named act its destructive one", async () => {
    const { tools: real } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
      duplicates: "qualify",
    });
    const index = new ToolSearchIndex();
    index.addAll(real);
    // before the rule: mail_deleteAliasV1 and create-draft-email came first
    expect(first(index, "email alias")).toBe("mail_createAliasV1");
    expect(first(index, "send email")).toBe("send-mail");
    expect(first(index, "delete vps snapshot")).toBe("VPS_deleteSnapshotV1");
    expect(first(index, "delete email alias")).toBe("mail_deleteAliasV1");
  });
});

function restored(from: readonly ToolDefinition[], snapshot: Uint8Array) {
  const warnings: string[] = [];
  const index = new ToolSearchIndex({ snapshot, onWarning: (message) => warnings.push(message) });
  index.addAll(from);
  return { index, warnings };
}

const QUERIES = [
  "vm snapshot",
  "delete vm snapshot",
  "remove the snapshot",
  "vm backup",
  "restart",
];

function answers(index: ToolSearchIndex): unknown[] {
  return QUERIES.map((query) => [
    index.rank(query, 5),
    index.search(query, { limit: 5, cut: false, explain: true }),
  ]);
}

describe("destructive tools in a snapshot", () => {
  it("rank as built after a restore that reads no tool's annotations, schema or description", () => {
    const index = new ToolSearchIndex();
    index.addAll(tools);
    const reads = new Set<string>();
    const { index: loaded, warnings } = restored(
      lazyTools(tools, reads, ["annotations", "description", "inputSchema"]),
      index.exportSnapshot(),
    );
    expect(warnings).toEqual([]);
    const rankings = (from: ToolSearchIndex) => QUERIES.map((query) => from.rank(query, 5));
    const parts = (from: ToolSearchIndex) =>
      QUERIES.map((query) =>
        from
          .search(query, { limit: 5, cut: false, explain: true })
          .hits.map((hit) => [hit.name, hit.score, hit.scoreParts]),
      );
    expect(rankings(loaded)).toEqual(rankings(index));
    expect(parts(loaded)).toEqual(parts(index));
    // the step applied: the delete tool is lowered for the object alone
    expect(loaded.rank("vm snapshot", 1)).not.toEqual(["vm_deleteSnapshot"]);
    expect(JSON.stringify(parts(loaded)[0])).toContain('"unasked":0.85');
    expect([...reads]).toEqual([]);
  });

  it("stay right for tools removed and added after a restore, before or after first use", () => {
    const index = new ToolSearchIndex();
    index.addAll(tools);
    const snapshot = index.exportSnapshot();
    const changes = (target: ToolSearchIndex) => {
      // the freed id is reused by a safe tool, and `delete` stops being mostly destructive
      target.remove("vm_deleteBackup");
      target.add({ ...(tools[3] as ToolDefinition), name: "vm_deleteCache", annotations: safe });
      target.add({ ...(tools[3] as ToolDefinition), name: "vm_deleteLog", annotations: safe });
    };
    for (const usedFirst of [false, true]) {
      const { index: loaded } = restored(tools, snapshot);
      if (usedFirst) answers(loaded);
      changes(loaded);
      const reference = new ToolSearchIndex();
      reference.addAll(tools);
      changes(reference);
      expect(answers(loaded), `used first: ${usedFirst}`).toEqual(answers(reference));
      // `delete` is in 3 names, 1 of them destructive: nothing is lowered any more
      expect(first(loaded, "vm snapshot"), `used first: ${usedFirst}`).toBe("vm_deleteSnapshot");
      // a snapshot of the changed index restores to the same answers (tools in id order)
      const live = (loaded as unknown as { indexed: { liveTools(): ToolDefinition[] } }).indexed;
      const again = restored(live.liveTools(), loaded.exportSnapshot());
      expect(again.warnings).toEqual([]);
      expect(answers(again.index)).toEqual(answers(reference));
    }
  });

  it("rebuild with a warning when the step's rows are malformed behind a valid checksum", () => {
    const index = new ToolSearchIndex();
    index.addAll(tools);
    const snapshot = index.exportSnapshot();
    const store = (index as unknown as { indexed: { store: { termId(term: string): number } } })
      .indexed.store;
    // "gone" is in a description only
    const edits = termRowEdits({
      "a term in no name": (rows) => {
        rows[2] = store.termId("gone");
      },
    });
    const expected = answers(index);
    for (const [problem, bytes] of editedSnapshots(snapshot, "destructiveTools", edits)) {
      const { index: loaded, warnings } = restored(tools, bytes);
      expect(warnings, problem).toHaveLength(1);
      expect(warnings[0], problem).toMatch(/destructive/);
      expect(answers(loaded), problem).toEqual(expected);
    }
  });
});
