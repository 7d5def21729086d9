import { describe, expect, it } from "vitest";
import { fromMCPToolsList } from "./catalog/index.js";
import { createToolSift } from "./create-toolsift.js";

const schema = { type: "object", properties: { title: { type: "string" } } } as const;

function server(name: string, tools: string[]) {
  return fromMCPToolsList(
    {
      tools: tools.map((tool) => ({
        name: tool,
        description: `${tool} on ${name}.`,
        inputSchema: schema,
      })),
    },
    { server: name },
  );
}

function chatResponse(name: string, args: unknown) {
  return {
    choices: [
      {
        message: {
          role: "assistant" as const,
          content: null,
          tool_calls: [
            {
              id: "c1",
              type: "function" as const,
              function: { name, arguments: JSON.stringify(args) },
            },
          ],
        },
      },
    ],
  };
}

function setup(strategy: "reveal" | "bridge") {
  const called: string[] = [];
  const sift = createToolSift({
    tools: [
      ...server("github-mcp-server", ["create_issue", "list_issues"]),
      ...server("gitlab", ["create_issue"]),
      ...server(
        "misc",
        Array.from({ length: 40 }, (_, index) => `misc_tool_${index}`),
      ),
    ],
    disclosure: { strategy },
    onCall: ({ name }) => {
      called.push(name);
      return "done";
    },
    onWarning: () => {},
  });
  return { sift, called };
}

function text(outcome: { content: readonly { type: string; text?: string }[] }): string {
  return outcome.content.map((part) => part.text ?? "").join("\n");
}

describe("names in search and describe text under a provider's name rules", () => {
  it("names a tool in tool_search lines as the OpenAI Chat function the model will call", async () => {
    const { sift, called } = setup("reveal");
    sift.prepare({ session: "s", provider: "openai-chat", model: "gpt-4.1" });
    const searched = await sift.respond({
      session: "s",
      provider: "openai-chat",
      response: chatResponse("tool_search", { queries: ["create issue github"] }),
    });
    const answer = text(searched.outcomes[0]?.outcome ?? { content: [] });
    expect(answer).toContain("github-mcp-server_create_issue");
    expect(answer).not.toContain("github-mcp-server/create_issue");
    // the next turn sends the revealed tool under that name, and a call to it runs
    const next = sift.prepare({ session: "s", provider: "openai-chat", model: "gpt-4.1" });
    const sent = next.tools.map((tool) => ("function" in tool ? tool.function.name : ""));
    expect(sent).toContain("github-mcp-server_create_issue");
    await sift.respond({
      session: "s",
      provider: "openai-chat",
      response: chatResponse("github-mcp-server_create_issue", { title: "Bug" }),
    });
    expect(called).toEqual(["github-mcp-server/create_issue"]);
  });

  it("accepts the provider's name in the bridge's call and describe tools", async () => {
    const { sift, called } = setup("bridge");
    sift.prepare({ session: "b", provider: "openai-chat", model: "gpt-4.1" });
    const described = await sift.respond({
      session: "b",
      provider: "openai-chat",
      response: chatResponse("tool_describe", { names: ["github-mcp-server_create_issue"] }),
    });
    const answer = text(described.outcomes[0]?.outcome ?? { content: [] });
    expect(described.outcomes[0]?.outcome.isError).not.toBe(true);
    expect(answer).toContain("github-mcp-server_create_issue");
    expect(answer).not.toContain("github-mcp-server/create_issue");
    await sift.respond({
      session: "b",
      provider: "openai-chat",
      response: chatResponse("tool_call", {
        name: "github-mcp-server_create_issue",
        arguments: { title: "Bug" },
      }),
    });
    expect(called).toEqual(["github-mcp-server/create_issue"]);
  });

  it("keeps catalog names without a provider", async () => {
    const { sift } = setup("reveal");
    sift.prepare({ session: "p", contextWindow: 8_000 });
    const outcome = await sift.execute({
      session: "p",
      name: "tool_search",
      arguments: { queries: ["create issue github"] },
    });
    expect(text(outcome)).toContain("github-mcp-server/create_issue");
  });
});
