import { describe, expect, it } from "vitest";
import { fromMCPToolsList, qualifyDuplicateNames, type ToolCallContext } from "../catalog/index.js";
import { createToolSift } from "../create-toolsift.js";
import type { DispatchedCall } from "./types.js";

const schema = { type: "object", properties: { title: { type: "string" } } } as const;

function mcpTool(name: string) {
  return { name, description: `Does ${name}.`, inputSchema: schema };
}

describe("the upstream name in onCall and handlers", () => {
  it("gives onCall the name the server knows for a tool renamed server/name", async () => {
    const calls: DispatchedCall[] = [];
    const sift = createToolSift({
      tools: [
        ...fromMCPToolsList({ tools: [mcpTool("create_issue")] }, { server: "github-mcp-server" }),
        ...fromMCPToolsList({ tools: [mcpTool("create_issue")] }, { server: "gitlab" }),
      ],
      onCall: (call) => {
        calls.push(call);
        return "ok";
      },
      onWarning: () => {},
    });
    expect(sift.catalog.has("github-mcp-server/create_issue")).toBe(true);
    const outcome = await sift.execute({
      session: "s",
      name: "github-mcp-server/create_issue",
      arguments: { title: "x" },
    });
    expect(outcome.isError).not.toBe(true);
    expect(calls[0]).toMatchObject({
      name: "github-mcp-server/create_issue",
      upstreamName: "create_issue",
    });
  });

  it("is the name itself for a tool toolsift did not rename", async () => {
    const calls: DispatchedCall[] = [];
    const sift = createToolSift({
      tools: fromMCPToolsList({ tools: [mcpTool("read_file")] }, { server: "fs" }),
      onCall: (call) => {
        calls.push(call);
        return "ok";
      },
    });
    await sift.execute({ session: "s", name: "read_file", arguments: {} });
    expect(calls[0]?.upstreamName).toBe("read_file");
  });

  it("keeps a wire name that looks qualified, and the server's own prefixed name", () => {
    const [imitating] = fromMCPToolsList(
      { tools: [mcpTool("server-github/create_issue")] },
      { server: "aaa" },
    );
    expect(imitating).toMatchObject({
      name: "aaa/server-github/create_issue",
      upstreamName: "server-github/create_issue",
    });
    const [own] = fromMCPToolsList({ tools: [mcpTool("fs/read")] }, { server: "fs" });
    expect(own?.name).toBe("fs/read");
    expect(own?.upstreamName ?? own?.name).toBe("fs/read");
  });

  it("records the upstream name when duplicates are qualified before loading", () => {
    const { entries } = qualifyDuplicateNames([
      { ...mcpTool("search"), server: "a" },
      { ...mcpTool("search"), server: "b" },
    ]);
    expect(entries).toMatchObject([
      { name: "a/search", upstreamName: "search" },
      { name: "b/search", upstreamName: "search" },
    ]);
  });

  it("gives a handler the upstream name in its context", async () => {
    const seen: ToolCallContext[] = [];
    const handler = (_args: unknown, context: ToolCallContext) => {
      seen.push(context);
      return "ok";
    };
    const sift = createToolSift({
      tools: [
        { ...mcpTool("send"), server: "slack", handler },
        { ...mcpTool("send"), server: "mail", handler },
      ],
      onWarning: () => {},
    });
    await sift.execute({ session: "s", name: "mail/send", arguments: {} });
    expect(seen[0]?.upstreamName).toBe("send");
  });
});
