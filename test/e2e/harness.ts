/**
 * The toolsift wiring the end-to-end tests use: catalog + search index + disclosure. Kept in one
 * place so a `createToolSift` facade can replace it.
 */

import type { ToolDefinition } from "../../src/catalog/index.js";
import { createCatalog } from "../../src/catalog/index.js";
import {
  createDisclosure,
  type Disclosure,
  type DisclosureOptions,
} from "../../src/disclosure/index.js";
import type { CallOutcome, UnifiedCall } from "../../src/providers/index.js";
import { syncSearchIndex, ToolSearchIndex } from "../../src/search/index.js";

export interface Harness {
  disclosure: Disclosure;
  /** Runs every call that toolsift executes (function and client-search calls). */
  execute(session: string, calls: readonly UnifiedCall[]): Promise<CallOutcome[]>;
}

/** Builds toolsift over `tools` with disclosure on (every server tool deferred). */
export function createHarness(
  tools: readonly ToolDefinition[],
  options: Partial<DisclosureOptions> = {},
): Harness {
  const catalog = createCatalog(tools);
  const index = new ToolSearchIndex();
  syncSearchIndex(index, catalog);
  const disclosure = createDisclosure({
    catalog,
    search: (query, searchOptions) => index.search(query, searchOptions),
    mode: "on",
    ...options,
  });
  return {
    disclosure,
    async execute(session, calls) {
      const outcomes: CallOutcome[] = [];
      for (const call of calls) {
        if (call.kind === "server_search") continue;
        const outcome = await disclosure.execute({
          session,
          name: call.name,
          arguments: call.arguments,
        });
        outcomes.push({ call, outcome });
      }
      return outcomes;
    },
  };
}

/** Calls a handler received, by tool name. */
export type CallLog = { tool: string; args: unknown }[];

/** A small two-server catalog with handlers that record their calls. */
export function e2eTools(log: CallLog): ToolDefinition[] {
  const handler = (tool: string) => (args: unknown) => {
    log.push({ tool, args });
    return { ok: true, tool, args };
  };
  const github = [
    ["create_issue", "Create a new issue in a GitHub repository."],
    ["list_issues", "List issues of a GitHub repository."],
    ["get_issue", "Get one issue of a GitHub repository by number."],
    ["close_issue", "Close an issue of a GitHub repository."],
    ["create_pull_request", "Open a pull request in a GitHub repository."],
    ["list_pull_requests", "List pull requests of a GitHub repository."],
    ["merge_pull_request", "Merge a pull request."],
    ["list_commits", "List commits of a branch."],
    ["get_file_contents", "Read a file from a GitHub repository."],
    ["search_code", "Search code across GitHub repositories."],
    ["create_branch", "Create a branch in a GitHub repository."],
  ].map(
    ([name, description]): ToolDefinition => ({
      name: `github.${name}`,
      description: description ?? "",
      server: "github",
      inputSchema: {
        type: "object",
        properties: {
          repo: { type: "string", description: "owner/name" },
          title: { type: "string" },
          labels: { type: "array", items: { type: "string" } },
        },
        required: ["repo"],
      },
      handler: handler(`github.${name}`),
    }),
  );
  const weather: ToolDefinition = {
    name: "weather.forecast",
    description: "Get the weather forecast for a city.",
    server: "weather",
    inputSchema: {
      type: "object",
      properties: {
        "city-name": { type: "string", description: "City to forecast." },
        days: { type: "integer", enum: [1, 3, 7] },
      },
      required: ["city-name"],
    },
    handler: handler("weather.forecast"),
  };
  const echo: ToolDefinition = {
    name: "echo",
    core: true,
    description: "Echo the text back.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    handler: handler("echo"),
  };
  return [...github, weather, echo];
}
