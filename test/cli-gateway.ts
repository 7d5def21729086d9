/**
 * The CLI's `toolsift serve` from source as a stdio MCP server, for tests that drive it with the
 * official SDK client: `serve --config CONFIG ...extra` through tsx, stderr piped.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The arguments of `node` running `toolsift serve --config CONFIG ...extra` from source. */
export function cliServeArgs(config: string, extra: readonly string[] = []): string[] {
  return [
    "--import",
    "tsx",
    path.join(root, "src/cli/main.ts"),
    "serve",
    "--config",
    config,
    ...extra,
  ];
}

/** The folder the CLI runs in (the repository's root, where tsx is found). */
export const cliRoot = root;

/**
 * A transport that starts the gateway; `env` replaces the child's environment when given. By
 * default the child keeps the SDK's default environment plus the test run's XDG_CACHE_HOME, so
 * a gateway's index cache goes to the tests' folder, not the user's.
 */
export function cliGatewayTransport(
  config: string,
  extra: readonly string[] = [],
  env?: Record<string, string>,
): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: cliServeArgs(config, extra),
    cwd: root,
    env: env ?? {
      ...getDefaultEnvironment(),
      ...(process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {}),
    },
    stderr: "pipe",
  });
}

/**
 * The official SDK client connected to a gateway from source (`cliGatewayTransport`), with what
 * the tests watch: the gateway's stderr so far, and whether it announced `tools/list_changed`
 * (serve answers at once; upstream tools arrive with that notice).
 */
export async function connectCliGateway(
  config: string,
  extra: readonly string[] = [],
  clientInfo = { name: "cli-gateway-test", version: "1" },
): Promise<{ client: Client; stderr: () => string; announced: () => boolean }> {
  const transport = cliGatewayTransport(config, extra);
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client(clientInfo);
  let announced = false;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    announced = true;
  });
  await client.connect(transport);
  return { client, stderr: () => stderr, announced: () => announced };
}
