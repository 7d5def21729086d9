import { describe, expect, it } from "vitest";
import { createSearchIndex } from "../index.js";
import { matchServers, serverMatches } from "./match-servers.js";

const SERVERS = [
  "server-slack",
  "slack-mcp",
  "mcp-gitlab",
  "github-mcp-server",
  "server-github",
  "git-mcp-server",
  "mcp-server-chart",
  "azure-devops-mcp",
  "@scope/server-google-maps",
  "Notion",
];

describe("serverMatches: server:NAME", () => {
  it("keeps exact names working, in any case", () => {
    expect(serverMatches("server-slack", "server-slack")).toBe(true);
    expect(serverMatches("notion", "Notion")).toBe(true);
    expect(serverMatches("MCP-GITLAB", "mcp-gitlab")).toBe(true);
  });

  it("matches a name part once server and mcp are dropped", () => {
    const slack = SERVERS.filter((server) => serverMatches("slack", server));
    expect(slack).toEqual(["server-slack", "slack-mcp"]);
    expect(SERVERS.filter((server) => serverMatches("github", server))).toEqual([
      "github-mcp-server",
      "server-github",
    ]);
    expect(SERVERS.filter((server) => serverMatches("chart", server))).toEqual([
      "mcp-server-chart",
    ]);
    expect(SERVERS.filter((server) => serverMatches("devops", server))).toEqual([
      "azure-devops-mcp",
    ]);
  });

  it("needs whole parts: git is not github, and several parts must all agree in order", () => {
    expect(SERVERS.filter((server) => serverMatches("git", server))).toEqual(["git-mcp-server"]);
    expect(serverMatches("google-maps", "@scope/server-google-maps")).toBe(true);
    expect(serverMatches("maps-google", "@scope/server-google-maps")).toBe(false);
    expect(serverMatches("azure-slack", "azure-devops-mcp")).toBe(false);
    expect(serverMatches("Azure_DevOps", "azure-devops-mcp")).toBe(true);
  });

  it("never matches every server on a generic word alone", () => {
    expect(SERVERS.filter((server) => serverMatches("mcp", server))).toEqual([]);
    expect(SERVERS.filter((server) => serverMatches("server", server))).toEqual([]);
  });
});

describe("matchServers", () => {
  it("resolves to lowercase catalog names and reports names that mean no server", () => {
    const { servers, unknown } = matchServers(["slack", "slak", "kubernetes"], SERVERS);
    expect(servers).toEqual(["server-slack", "slack-mcp"]);
    expect(unknown).toEqual([
      { server: "slak", closest: ["server-slack", "slack-mcp"] },
      { server: "kubernetes", closest: [] },
    ]);
  });
});

describe("ToolSearchIndex with server:", () => {
  const index = createSearchIndex();
  const tool = (name: string, server: string, description: string) => ({
    name,
    description,
    inputSchema: { type: "object" as const },
    server,
  });
  index.add(tool("slack_post_message", "server-slack", "Post a message to a Slack channel"));
  index.add(tool("post_message", "teams-mcp", "Post a message to a Teams channel"));
  index.add(tool("send_email", "mail", "Send an email message"));

  it("filters on the servers the name means", () => {
    const result = index.search("post message server:slack");
    expect(result.hits.map((hit) => hit.name)).toEqual(["slack_post_message"]);
    expect(result.unknownServers).toBeUndefined();
    expect(index.search("server:teams").hits.map((hit) => hit.name)).toEqual(["post_message"]);
  });

  it("says which server: names mean nothing, with the closest and the server list", () => {
    const result = index.search("post message server:slak");
    expect(result.hits).toEqual([]);
    expect(result.unknownServers).toEqual([{ server: "slak", closest: ["server-slack"] }]);
    expect(result.servers?.map((entry) => entry.server)).toEqual([
      "mail",
      "server-slack",
      "teams-mcp",
    ]);
    // one known name still filters; the unknown one is reported beside the hits
    const mixed = index.search("message server:mail server:teems");
    expect(mixed.hits.map((hit) => hit.name)).toEqual(["send_email"]);
    expect(mixed.unknownServers).toEqual([{ server: "teems", closest: ["teams-mcp"] }]);
  });
});
