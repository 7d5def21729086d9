import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "./catalog/index.js";
import { createToolSift } from "./create-toolsift.js";

const tool = (name: string, server: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  server,
  handler: () => "ok",
});

const tools = [
  tool("post_message", "server-slack", "Post a message to a Slack channel."),
  tool("list_channels", "server-slack", "List the channels of a Slack workspace."),
  tool("send_email", "mail-mcp", "Send an email message."),
  tool("delete_mailbox", "mail-mcp", "Delete a whole mailbox."),
];

async function search(query: string, deny?: string[]): Promise<string> {
  const sift = createToolSift({
    tools,
    disclosure: { mode: "on" },
    tokens: "estimate",
    ...(deny ? { policy: { layers: [{ label: "host", deny }] } } : {}),
  });
  const outcome = await sift.execute({
    session: "s",
    name: "tool_search",
    arguments: { queries: [query] },
  });
  const first = outcome.content[0];
  return first?.type === "text" ? first.text : "";
}

describe("tool_search with server:", () => {
  it("finds server-slack's tools with server:slack", async () => {
    const text = await search("message server:slack");
    expect(text).toContain("post_message");
    expect(text).not.toContain("send_email");
  });

  it("tells the model a server: name means no server, with the closest", async () => {
    const text = await search("message server:slak");
    expect(text).toContain("no match.");
    expect(text).toContain("server:slak names no server (closest: server:server-slack)");
    const mixed = await search("message server:mail server:slak");
    expect(mixed).toContain("send_email");
    expect(mixed).toContain("not found: server:slak names no server");
  });

  it("does not name a server whose every tool the policy hides", async () => {
    const text = await search("message server:mail", ["send_email", "delete_mailbox"]);
    expect(text).toContain("server:mail names no server");
    expect(text).not.toContain("mail-mcp");
  });
});
