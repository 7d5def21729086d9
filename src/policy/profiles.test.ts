import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createPolicy } from "./create-policy.js";
import { ProfileRegistry } from "./profile-registry.js";

function tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description: "", inputSchema: { type: "object" }, ...extra };
}

const readFile = tool("read_file", { server: "fs", annotations: { readOnlyHint: true } });
const writeFile = tool("write_file", { server: "fs", annotations: { destructiveHint: true } });
const gitLog = tool("mcp__git__git_log", { server: "git" });
const slackPost = tool("slack_post_message", { server: "slack" });
const adminUsers = tool("admin_users", { server: "tools", category: "code" });
const declaredCoding = tool("custom_linter", { profiles: ["coding"] });
const declaredOther = tool("custom_report", { profiles: ["reporting"] });
const taggedCore = tool("whoami", { tags: ["core"] });
const destructiveCore = tool("reset_all", {
  tags: ["core"],
  annotations: { destructiveHint: true },
});
const all = [
  readFile,
  writeFile,
  gitLog,
  slackPost,
  adminUsers,
  declaredCoding,
  declaredOther,
  taggedCore,
  destructiveCore,
];
const names = (tools: readonly ToolDefinition[]) => tools.map((item) => item.name);

describe("built-in profiles", () => {
  it("hold only valid globs (they are compiled on first match, not when a policy is made)", () => {
    const registry = new ProfileRegistry();
    // a tool with every field a selector reads, so every glob is matched (and compiled) once
    const probe = tool("probe", {
      server: "s",
      category: "c",
      tags: ["t"],
      profiles: ["p"],
      annotations: { readOnlyHint: true },
    });
    for (const name of registry.names()) {
      const profile = registry.require(name);
      for (const selector of [...profile.include, ...profile.exclude]) {
        expect(() => selector.test(probe), `${name}: ${selector.source}`).not.toThrow();
      }
    }
  });

  it("full (the default) keeps everything", () => {
    const policy = createPolicy();
    expect(policy.profile).toBe("full");
    expect(policy.filter(all)).toEqual(all);
  });

  it("minimal keeps the read-only core and opted-in tools, never destructive ones", () => {
    const policy = createPolicy({ profile: "minimal" });
    expect(names(policy.filter(all))).toEqual(["read_file", "mcp__git__git_log", "whoami"]);
    expect(policy.explain(destructiveCore)).toMatchObject({
      visible: false,
      layer: "profile:minimal",
      rule: "deny",
      selector: "annotation:destructiveHint",
    });
  });

  it("coding keeps files, git, declared members and leaves admin and chat tools out", () => {
    const policy = createPolicy({ profile: "coding" });
    expect(names(policy.filter(all))).toEqual([
      "read_file",
      "write_file",
      "mcp__git__git_log",
      "custom_linter",
    ]);
    expect(policy.explain(declaredCoding)).toMatchObject({
      visible: true,
      allowedBy: [{ layer: "profile:coding", rule: "declared", selector: "profile:coding" }],
    });
    expect(policy.explain(adminUsers)).toMatchObject({
      rule: "deny",
      selector: "{,*__,*.,*/,*:}admin_*",
    });
    const slack = policy.explain(slackPost);
    expect(slack).toMatchObject({ visible: false, layer: "profile:coding", rule: "not_allowed" });
    expect(slack.reason).toContain("leaves such tools out");
  });

  it("profiles() lists built-ins and custom ones, sorted", () => {
    const policy = createPolicy({ profiles: [{ name: "review", include: ["github_*"] }] });
    expect(policy.profiles().map((info) => [info.name, info.builtIn])).toEqual([
      ["coding", true],
      ["full", true],
      ["minimal", true],
      ["review", false],
    ]);
  });
});

describe("custom profiles", () => {
  it("take tools by include, declared membership and (optionally) unprofiled", () => {
    const policy = createPolicy({
      profile: "reporting",
      profiles: [{ name: "reporting", include: ["server:slack"] }],
    });
    expect(names(policy.filter(all))).toEqual(["slack_post_message", "custom_report"]);
    policy.registerProfile({
      name: "reporting",
      include: ["server:slack"],
      includeUnprofiled: true,
    });
    // declared tools of other profiles stay out; every tool that declares nothing comes in
    expect(names(policy.filter(all))).toEqual(names(all.filter((item) => item !== declaredCoding)));
    expect(policy.explain(readFile)).toMatchObject({
      allowedBy: [{ layer: "profile:reporting", rule: "unprofiled", profile: "reporting" }],
    });
  });

  it("exclude wins over declared membership", () => {
    const policy = createPolicy({
      profile: "lint",
      profiles: [{ name: "lint", exclude: ["custom_*"] }],
    });
    const linter = tool("custom_lint", { profiles: ["lint"] });
    expect(policy.isAllowed(linter)).toBe(false);
    expect(policy.explain(linter)).toMatchObject({ rule: "deny", selector: "custom_*" });
  });

  it("extends another profile: parent members join, own excludes still apply", () => {
    const policy = createPolicy({
      profile: "web-coding",
      profiles: [
        // registered before its parent: order within one batch does not matter
        { name: "web-coding", extends: "coding", include: ["server:slack"], exclude: ["write_*"] },
      ],
    });
    expect(names(policy.filter(all))).toEqual([
      "read_file",
      "mcp__git__git_log",
      "slack_post_message",
      "custom_linter",
    ]);
    expect(policy.explain(gitLog)).toMatchObject({
      allowedBy: [{ layer: "profile:web-coding", rule: "allow", profile: "coding" }],
    });
    const admin = policy.explain(adminUsers);
    expect(admin).toMatchObject({ rule: "deny", profile: "coding" });
    expect(admin.reason).toContain('extended by "web-coding"');
  });

  it("reject unknown parents, cycles, bad names and unknown fields, naming the fix", () => {
    expect(() => createPolicy({ profiles: [{ name: "x", extends: "codng" }] })).toThrow(
      /extends unknown profile "codng". Did you mean "coding"\?/,
    );
    expect(() =>
      createPolicy({
        profiles: [
          { name: "a", extends: "b" },
          { name: "b", extends: "a" },
        ],
      }),
    ).toThrow(/extends itself through a -> b -> a/);
    expect(() => createPolicy({ profiles: [{ name: "has space" }] })).toThrow(
      /Invalid profile name "has space"/,
    );
    expect(() =>
      createPolicy({ profiles: [{ name: "x", exlude: ["a"] } as unknown as { name: string }] }),
    ).toThrow(/unknown field "exlude". Did you mean "exclude"\?/);
    expect(() => createPolicy({ profiles: [{ name: "x", include: ["categry:a"] }] })).toThrow(
      /Profile "x" include: 1 invalid selector/,
    );
  });

  it("a failed registration changes nothing", () => {
    const policy = createPolicy();
    expect(() => policy.registerProfile({ name: "coding", extends: "nope" })).toThrow();
    expect(policy.version).toBe(0);
    policy.setProfile("coding");
    expect(policy.isAllowed(slackPost)).toBe(false);
  });
});

describe("switching profiles at runtime", () => {
  it("changes decisions, bumps the version and the fingerprint", () => {
    const policy = createPolicy();
    const seen: number[] = [];
    policy.onChange((version) => seen.push(version));
    const before = policy.fingerprint();
    expect(policy.isAllowed(slackPost)).toBe(true);
    policy.setProfile("coding");
    expect(policy.profile).toBe("coding");
    expect(policy.isAllowed(slackPost)).toBe(false);
    expect(policy.version).toBe(1);
    expect(policy.fingerprint()).not.toBe(before);
    policy.setProfile("coding");
    expect(policy.version).toBe(1);
    policy.setProfile("full");
    expect(policy.fingerprint()).toBe(before);
    expect(seen).toEqual([1, 2]);
  });

  it("refuses unknown profiles, listing the known ones", () => {
    const policy = createPolicy();
    expect(() => policy.setProfile("codng")).toThrow(
      'Unknown profile "codng". Did you mean "coding"? Known profiles: coding, full, minimal.',
    );
    expect(() => createPolicy({ profile: "nope" })).toThrow(/Known profiles: coding, full/);
    expect(policy.profile).toBe("full");
  });
});
