import { describe, expect, it } from "vitest";
import { createToolSift } from "../../create-toolsift.js";
import { connectServers } from "../connect-servers.js";
import { serverNameProblem } from "./server-name.js";

describe("serverNameProblem", () => {
  it("admits names that are safe SERVER__TOOL prefixes", () => {
    for (const name of ["github", "gh-x", "my_server", "a", "x".repeat(64)]) {
      expect(serverNameProblem(name)).toBeUndefined();
    }
  });

  it("refuses names that could make two servers' tools meet, naming a fixed name", () => {
    expect(serverNameProblem("gh__x")).toContain('rename it (e.g. "gh-x")');
    expect(serverNameProblem("gh_")).toContain('rename it (e.g. "gh")');
    expect(serverNameProblem("a b")).toContain('1–64 letters, digits, "_" or "-"');
    expect(serverNameProblem("x".repeat(65))).toContain("1–64 letters");
  });
});

describe("connectServers", () => {
  it("refuses a server name with '__' from library code too, before starting any server", async () => {
    // the config reader refused it; a library caller passing servers directly did not, and tool
    // y of server gh__x could take the name of tool x__y of server gh
    const sift = createToolSift({ tools: [] });
    const connecting = connectServers(sift, {
      servers: { gh: { command: "no-such-command" }, gh__x: { command: "no-such-command" } },
    });
    await expect(connecting).rejects.toThrow(/Server "gh__x": .*rename it \(e\.g\. "gh-x"\)/);
  });
});
