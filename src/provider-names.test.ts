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

/** 43 tools; `create_issue` is on two servers, so its catalog names are qualified with `/`. */
function catalog() {
  return [
    ...server("github-mcp-server", ["create_issue", "list_issues"]),
    ...server("gitlab", ["create_issue"]),
    ...server(
      "misc",
      Array.from({ length: 40 }, (_, index) => `misc_tool_${index}`),
    ),
  ];
}

function setup(strategy: "reveal" | "bridge") {
  const called: string[] = [];
  const sift = createToolSift({
    tools: catalog(),
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

describe("names in the listing of deferred tools under a provider's name rules", () => {
  function listingSetup() {
    const sift = createToolSift({
      tools: catalog(),
      disclosure: { strategy: "bridge", mode: "on", listing: true },
      onCall: () => "done",
      onWarning: () => {},
    });
    return { sift };
  }

  /** Every text of a turn the model reads: the system note and each tool's description. */
  function modelText(turn: { system: string; tools: readonly unknown[] }): string {
    return JSON.stringify([turn.system, turn.tools]);
  }

  for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const) {
    it(`lists deferred tools under ${provider} by the names the provider was sent`, () => {
      const { sift } = listingSetup();
      const turn = sift.prepare({ session: provider, provider });
      const text = modelText(turn);
      // the listing is there at all (names tier or summaries tier)
      expect(text).toContain("Deferred tools (43)");
      expect(text).toContain("github-mcp-server_create_issue");
      expect(text).toContain("- list_issues: ");
      expect(text).toContain("gitlab_create_issue");
      expect(text).not.toContain("github-mcp-server/create_issue");
      expect(text).not.toContain("gitlab/create_issue");
      // server names stay as they are: they are not tool names
      expect(text).toContain("github-mcp-server (2)");
    });
  }

  it("follows a namespaced name map, and renames only tool names (not the listing's own words)", () => {
    const { sift } = listingSetup();
    const turn = sift.prepare({
      session: "ns",
      provider: "anthropic",
      format: { names: { namespace: "server" } },
    });
    const text = modelText(turn);
    expect(text).toContain("gitlab__gitlab_create_issue");
    expect(text).toContain("- misc__misc_tool_7: misc_tool_7 on misc.");
    expect(text).toContain("- github-mcp-server__list_issues: ");
    expect(text).not.toContain("gitlab/create_issue");
    expect(text).toContain("Deferred tools (43):");
  });
});
