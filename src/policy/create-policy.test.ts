import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createPolicy } from "./create-policy.js";

function tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description: "", inputSchema: { type: "object" }, ...extra };
}

const listIssues = tool("github_list_issues", { server: "github" });
const deleteRepo = tool("github_delete_repo", { server: "github" });
const deleteFile = tool("delete_file", { server: "fs" });
const readFile = tool("read_file", { server: "fs" });
const tools = [listIssues, deleteRepo, deleteFile, readFile];
const names = (list: readonly ToolDefinition[]) => list.map((item) => item.name);
const catalog = { get: (name: string) => tools.find((item) => item.name === name) };

describe("layers", () => {
  it("deny wins over allow within a layer", () => {
    const policy = createPolicy({
      layers: [{ label: "agent", allow: ["github_*"], deny: ["*delete*"] }],
    });
    expect(names(policy.filter(tools))).toEqual(["github_list_issues"]);
    expect(policy.explain(deleteRepo)).toEqual({
      visible: false,
      found: true,
      tool: "github_delete_repo",
      layer: "agent",
      rule: "deny",
      selector: "*delete*",
      reason: 'Hidden by layer "agent": deny selector "*delete*" matches.',
    });
    expect(policy.explain(readFile)).toMatchObject({
      visible: false,
      layer: "agent",
      rule: "not_allowed",
      reason: 'Hidden by layer "agent": no allow selector matches (allow: "github_*").',
    });
  });

  it("explain names the first layer that hid the tool", () => {
    const policy = createPolicy({
      layers: [
        { label: "global", allow: ["server:github", "read_*"] },
        { label: "safety", deny: ["*delete*"] },
        { label: "user", deny: ["github_*"] },
      ],
    });
    expect(policy.filter(tools)).toEqual([readFile]);
    expect(policy.explain(deleteFile)).toMatchObject({ layer: "global", rule: "not_allowed" });
    expect(policy.explain(deleteRepo)).toMatchObject({ layer: "safety", selector: "*delete*" });
    expect(policy.explain(listIssues)).toMatchObject({ layer: "user", selector: "github_*" });
    expect(policy.explain(readFile)).toEqual({
      visible: true,
      found: true,
      tool: "read_file",
      allowedBy: [
        { layer: "profile:full", rule: "allow", selector: "*", profile: "full" },
        { layer: "global", rule: "allow", selector: "read_*" },
      ],
      layers: ["profile:full", "global", "safety", "user"],
      reason:
        'Visible: allowed by "profile:full" (*), "global" (read_*); no deny matched in 4 layer(s).',
    });
  });

  it("an empty allow list lets nothing through; no lists let everything through", () => {
    expect(createPolicy({ layers: [{ label: "closed", allow: [] }] }).filter(tools)).toEqual([]);
    expect(createPolicy({ layers: [{ label: "open" }] }).filter(tools)).toEqual(tools);
  });

  it("setLayer replaces in place, appends new labels, or inserts before a label", () => {
    const policy = createPolicy({ layers: [{ label: "global" }, { label: "user" }] });
    policy.setLayer({ label: "agent", deny: ["*delete*"] });
    policy.setLayer({ label: "safety", deny: ["github_*"] }, { before: "global" });
    policy.setLayer({ label: "global", allow: ["*"] });
    expect(policy.layers().map((layer) => layer.label)).toEqual([
      "safety",
      "global",
      "user",
      "agent",
    ]);
    policy.setLayer({ label: "agent", deny: ["*delete*"] }, { before: "global" });
    expect(policy.layers().map((layer) => layer.label)).toEqual([
      "safety",
      "agent",
      "global",
      "user",
    ]);
    expect(policy.explain(deleteRepo)).toMatchObject({ layer: "safety" });
    expect(policy.removeLayer("safety")).toBe(true);
    expect(policy.removeLayer("safety")).toBe(false);
    expect(policy.explain(deleteRepo)).toMatchObject({ layer: "agent", selector: "*delete*" });
    expect(() => policy.setLayer({ label: "x" }, { before: "nope" })).toThrow(
      /before unknown layer "nope". Existing layers: agent, global, user/,
    );
  });

  it("drops cached decisions when the policy changes", () => {
    const policy = createPolicy();
    expect(policy.filter(tools)).toEqual(tools);
    policy.setLayer({ label: "safety", deny: ["*delete*"] });
    expect(names(policy.filter(tools))).toEqual(["github_list_issues", "read_file"]);
    policy.removeLayer("safety");
    expect(policy.filter(tools)).toEqual(tools);
  });

  it("version and fingerprint move only when the state changes", () => {
    const policy = createPolicy({ layers: [{ label: "safety", deny: ["*delete*"] }] });
    const first = policy.fingerprint();
    expect(first).toMatch(/^full:[0-9a-f]{16}$/);
    policy.setLayer({ label: "safety", deny: ["*delete*"], description: "same rules" });
    expect(policy.version).toBe(0);
    policy.setLayer({ label: "safety", deny: ["*remove*"] });
    expect(policy.version).toBe(1);
    expect(policy.fingerprint()).not.toBe(first);
    policy.setLayer({ label: "safety", deny: ["*delete*"] });
    expect(policy.fingerprint()).toBe(first);
    const twin = createPolicy({ layers: [{ label: "safety", deny: ["*delete*"] }] });
    expect(twin.fingerprint()).toBe(first);
  });

  it("keeps its own copy of layer definitions", () => {
    const deny = ["*delete*"];
    const policy = createPolicy({ layers: [{ label: "safety", deny }] });
    deny.push("read_*");
    expect(policy.isAllowed(readFile)).toBe(true);
    expect(policy.layers()).toEqual([{ label: "safety", deny: ["*delete*"] }]);
  });

  it("rejects bad layers with a message naming the fix", () => {
    expect(() => createPolicy({ layers: [{ label: "a" }, { label: "a" }] })).toThrow(
      /Two layers are labelled "a"/,
    );
    expect(() => createPolicy({ layers: [{ label: "profile:x" }] })).toThrow(/reserved prefix/);
    expect(() => createPolicy({ layers: [{ label: "" }] })).toThrow(/non-empty label/);
    expect(() =>
      createPolicy({ layers: [{ label: "a", alow: ["x"] } as unknown as { label: string }] }),
    ).toThrow(/unknown field "alow". Did you mean "allow"\?/);
    expect(() => createPolicy({ layers: [{ label: "a", deny: ["categry:x"] }] })).toThrow(
      /Layer "a" deny: 1 invalid selector.*unknown prefix "categry:"/,
    );
  });
});

describe("names and unknown tools", () => {
  it("explains names through the catalog, and says when a name is unknown", () => {
    const policy = createPolicy({ catalog, layers: [{ label: "safety", deny: ["*delete*"] }] });
    expect(policy.explain("delete_file")).toMatchObject({ visible: false, layer: "safety" });
    expect(policy.explain("no_such_tool")).toEqual({
      visible: false,
      found: false,
      tool: "no_such_tool",
      reason: 'No tool named "no_such_tool" in the catalog, so nothing can show or run it.',
    });
    expect(policy.isAllowed("read_file")).toBe(true);
    expect(policy.isAllowed("delete_file")).toBe(false);
    expect(policy.isAllowed("no_such_tool")).toBe(false);
  });

  it("asks for a catalog when given a name without one, and refuses non-tools", () => {
    const policy = createPolicy();
    expect(() => policy.explain("read_file")).toThrow(/pass createPolicy\(\{ catalog \}\)/);
    expect(() => policy.isAllowed(undefined as unknown as ToolDefinition)).toThrow(
      /instead of a tool/,
    );
  });
});

describe("policy name globs and case", () => {
  const tools = ["DELETE_repo", "delete_file", "read_file"].map((name) => ({
    name,
    description: "",
    inputSchema: { type: "object" as const },
  }));
  it("deny: [*delete*] hides DELETE_repo by default", () => {
    const policy = createPolicy({ layers: [{ label: "safety", deny: ["*delete*"] }] });
    expect(tools.filter((tool) => policy.isAllowed(tool)).map((tool) => tool.name)).toEqual([
      "read_file",
    ]);
  });
  it("caseSensitive: true keeps globs exact", () => {
    const policy = createPolicy({
      caseSensitive: true,
      layers: [{ label: "safety", deny: ["*delete*"] }],
    });
    expect(tools.filter((tool) => policy.isAllowed(tool)).map((tool) => tool.name)).toEqual([
      "DELETE_repo",
      "read_file",
    ]);
  });
});
