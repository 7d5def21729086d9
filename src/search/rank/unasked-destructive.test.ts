import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../../test/shared-dir.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { loadCatalogPaths } from "../../catalog/node.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { scoreFromParts } from "./hit-details.js";

const schema = { type: "object" as const };
const safe = { readOnlyHint: false, destructiveHint: false };
const destructive = { readOnlyHint: false, destructiveHint: true };

// the delete tool says "snapshot" twice, so it leads on the object alone (as in real catalogs)
const tools: ToolDefinition[] = [
  {
    name: "vm_deleteSnapshot",
    description: "Delete one snapshot of a virtual machine: the snapshot is gone.",
    inputSchema: schema,
    annotations: destructive,
  },
  {
    name: "vm_getSnapshot",
    description: "Get the snapshot of a virtual machine.",
    inputSchema: schema,
    annotations: { readOnlyHint: true, destructiveHint: false },
  },
  {
    name: "vm_createSnapshot",
    description: "Create a snapshot of a virtual machine.",
    inputSchema: schema,
    annotations: safe,
  },
  {
    name: "vm_deleteBackup",
    description: "Delete a backup of a virtual machine.",
    inputSchema: schema,
    annotations: destructive,
  },
  {
    name: "vm_restart",
    description: "Restart a virtual machine.",
    inputSchema: schema,
    annotations: safe,
  },
];

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
