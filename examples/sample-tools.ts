/**
 * A small two-server tool set the provider examples share: a few GitHub tools and a weather tool,
 * each with a handler that logs its call. Real hosts load MCP `tools/list` results instead.
 */
import type { ToolDefinition } from "../src/index.js";

/** The calls the handlers received, in order. */
export type CallLog = { tool: string; args: unknown }[];

/** The example tools; every handler appends to `log`. */
export function sampleTools(log: CallLog = []): ToolDefinition[] {
  const handler = (tool: string) => (args: unknown) => {
    log.push({ tool, args });
    return { ok: true, tool };
  };
  const repo = { type: "string", description: "owner/name" };
  return [
    {
      name: "create_issue",
      server: "github",
      description: "Create a new issue in a GitHub repository.",
      inputSchema: {
        type: "object",
        properties: { repo, title: { type: "string" }, body: { type: "string" } },
        required: ["repo", "title"],
      },
      handler: handler("create_issue"),
    },
    {
      name: "list_issues",
      server: "github",
      description: "List the open issues of a GitHub repository.",
      inputSchema: { type: "object", properties: { repo }, required: ["repo"] },
      handler: handler("list_issues"),
    },
    {
      name: "merge_pull_request",
      server: "github",
      description: "Merge a pull request of a GitHub repository.",
      inputSchema: {
        type: "object",
        properties: { repo, number: { type: "integer" } },
        required: ["repo", "number"],
      },
      handler: handler("merge_pull_request"),
    },
    {
      name: "forecast",
      server: "weather",
      description: "Get the weather forecast for a city.",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", enum: [1, 3, 7] } },
        required: ["city"],
      },
      handler: handler("forecast"),
    },
  ];
}

/** Whether this module is the script node was started with (`npx tsx examples/….ts`). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && new URL(moduleUrl).pathname === script;
}

/** The API key an example needs to run against the real API; without it, a one-line hint and
 * exit code 1 instead of the SDK's stack trace (`npm run demo` runs the same loops offline). */
export function apiKey(variable: string): string {
  const key = process.env[variable];
  if (key) return key;
  console.error(
    `Set ${variable} to run this example against the real API. To see the same loop without a key, run npm run demo (the SDKs talk to a local mock server there).`,
  );
  process.exit(1);
}
