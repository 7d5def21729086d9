/**
 * The gateway's config: toolsift's own `servers` file, and as they are the `mcpServers` object of
 * Claude Desktop / Cursor / Claude Code `.mcp.json` and VS Code's `servers`. Every problem is
 * reported at once with its path (`servers.github.command: expected a string`).
 */
import type { DeferPolicy } from "../../catalog/index.js";
import type { GatewayAuthOptions } from "../auth/bearer-guard.js";
import type { NamingOption } from "../tools/upstream-names.js";
import type { UpstreamServerConfig } from "../types.js";
import { readGatewayAuth, readUpstreamAuth } from "./auth-config.js";
import { checkKeys, createReader, isObject, kind, optional, type Reader } from "./config-reader.js";
import { type EmbedderConfig, readEmbedder } from "./embedder-config.js";
import type { VariableContext } from "./expand-variables.js";
import { serverNameProblem } from "./server-name.js";

/** How the gateway shows tools to its clients. */
export type GatewayMode = "bridge" | "reveal" | "direct";

/** A parsed, checked gateway config. */
export interface GatewayConfig {
  servers: Record<string, UpstreamServerConfig>;
  mode?: GatewayMode;
  naming?: NamingOption;
  /** The active policy profile. */
  profile?: string;
  budget?: { perToolResult?: number; totalResults?: number; toolDefinitions?: number };
  /** Pin tool definitions by fingerprint: a tool that changes after approval is held back until
   * `toolsift approve`. Default false. */
  pinTools?: boolean;
  /** The approvals file (default: `NAME.approvals.json` beside the config `NAME.json`). */
  approvals?: string;
  /** Where HTTP replicas share sessions, `redis://HOST:PORT[/DB]` (`--state` wins). */
  state?: string;
  /** Search that learns from use (on unless `false`); `file` is where the evidence is kept
   * (default under `$XDG_STATE_HOME/toolsift/learning/`, docs/mcp-gateway.md). */
  learning?: false | { file?: string };
  /** Hybrid search: an OpenAI-compatible endpoint or a word-vector file (docs/semantic-search.md). */
  embedder?: EmbedderConfig;
  /** The identity provider whose tokens the HTTP gateway requires (`--auth-issuer` and
   * `--auth-audience` win); `docs/auth.md`. */
  auth?: GatewayAuthOptions;
  /** Per server, the catalog file (e.g. from `toolsift dump`) to read its known tools from, and
   * the config path that named it (for messages). */
  catalogs: Record<string, { file: string; at: string }>;
}

const SERVER_KEYS = [
  "type",
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "enabled",
  "disabled",
  "profile",
  "catalog",
  "lazy",
  "defer",
  "neverDefer",
  "callTimeoutMs",
];
const TOP_KEYS = [
  "servers",
  "mcpServers",
  "mode",
  "naming",
  "profile",
  "pinTools",
  "approvals",
  "budget",
  "state",
  "learning",
  "auth",
  "embedder",
];
const BUDGET_KEYS = ["perToolResult", "totalResults", "toolDefinitions"];

function readServer(
  read: Reader,
  path: string,
  raw: unknown,
): { server?: UpstreamServerConfig; catalog?: string } {
  if (!isObject(raw)) {
    read.problems.push(`${path}: expected an object with "command" or "url", got ${kind(raw)}.`);
    return {};
  }
  checkKeys(read, `${path}.`, raw, SERVER_KEYS);
  const type = read.oneOf(`${path}.type`, raw.type, [
    "stdio",
    "http",
    "streamable-http",
    "sse",
  ] as const);
  const { common, catalog } = readCommonFields(read, path, raw);
  const command = read.string(`${path}.command`, raw.command);
  const url = read.string(`${path}.url`, raw.url);
  if (command !== undefined && url !== undefined) {
    read.problems.push(
      `${path}: has both "command" and "url"; keep "command" for a local server or "url" for a remote one.`,
    );
    return {};
  }
  if (command !== undefined) {
    if (type !== undefined && type !== "stdio")
      read.problems.push(`${path}.type: "${type}" needs "url", not "command".`);
    const server = {
      ...common,
      command,
      ...optional("args", read.strings(`${path}.args`, raw.args)),
      ...optional("env", read.record(`${path}.env`, raw.env)),
      ...optional("cwd", read.string(`${path}.cwd`, raw.cwd)),
    };
    return { server, ...optional("catalog", catalog) };
  }
  if (url !== undefined) {
    const server = { ...common, ...readHttpFields(read, path, raw, url, type) };
    return { server, ...optional("catalog", catalog) };
  }
  read.problems.push(
    `${path}: needs "command" (a local server started over stdio) or "url" (a remote server).`,
  );
  return {};
}

/** The fields every server has, whatever its transport, and its `catalog` file. */
function readCommonFields(read: Reader, path: string, raw: Record<string, unknown>) {
  const disabled = read.boolean(`${path}.disabled`, raw.disabled);
  const enabled =
    read.boolean(`${path}.enabled`, raw.enabled) ??
    (disabled === undefined ? undefined : !disabled);
  const profile =
    typeof raw.profile === "string"
      ? read.string(`${path}.profile`, raw.profile)
      : read.strings(`${path}.profile`, raw.profile);
  const catalog = read.string(`${path}.catalog`, raw.catalog);
  const lazy = read.boolean(`${path}.lazy`, raw.lazy);
  if (lazy && catalog === undefined) {
    read.problems.push(
      `${path}.lazy: a lazy server needs "catalog", the file of its tools; write one with "toolsift dump --config FILE".`,
    );
  }
  const common = {
    ...(enabled !== undefined ? { enabled } : {}),
    ...optional(
      "defer",
      read.oneOf<DeferPolicy>(`${path}.defer`, raw.defer, ["never", "auto", "always"]),
    ),
    ...optional("neverDefer", read.strings(`${path}.neverDefer`, raw.neverDefer)),
    ...optional("profile", profile),
    ...optional("callTimeoutMs", read.positive(`${path}.callTimeoutMs`, raw.callTimeoutMs)),
    ...optional("lazy", lazy),
  };
  return { common, catalog };
}

/** A remote server's own fields: its `url`, headers, OAuth block and transport (`type`). */
function readHttpFields(
  read: Reader,
  path: string,
  raw: Record<string, unknown>,
  url: string,
  type: "stdio" | "http" | "streamable-http" | "sse" | undefined,
) {
  if (!/^https?:\/\/[^/]/.test(url))
    read.problems.push(
      `${path}.url: expected an http:// or https:// address, got ${JSON.stringify(url)}.`,
    );
  if (type === "stdio") read.problems.push(`${path}.type: "stdio" needs "command", not "url".`);
  return {
    url,
    ...optional("headers", read.record(`${path}.headers`, raw.headers)),
    ...optional("auth", readUpstreamAuth(read, `${path}.auth`, raw.auth)),
    ...(type === "sse"
      ? { transport: "sse" as const }
      : type
        ? { transport: "http" as const }
        : {}),
  };
}

/** `learning`: true or false, or `{ "file": PATH }`. */
function readLearning(read: Reader, raw: unknown): GatewayConfig["learning"] {
  if (raw === undefined || raw === true) return undefined;
  if (raw === false) return false;
  if (!isObject(raw)) {
    read.problems.push(
      `learning: expected true, false or an object like {"file": "learning.json"}, got ${kind(raw)}.`,
    );
    return undefined;
  }
  checkKeys(read, "learning.", raw, ["file"]);
  return optional("file", read.string("learning.file", raw.file));
}

/**
 * Checks a config document. `problems` lists every problem with its path; `config` is usable
 * only when `problems` is empty.
 */
export function parseGatewayConfig(
  document: unknown,
  context: VariableContext,
): { config: GatewayConfig; problems: string[] } {
  const read = createReader(context);
  const config: GatewayConfig = { servers: {}, catalogs: {} };
  if (!isObject(document)) {
    read.problems.push(
      `(top level): expected an object with "servers" (or "mcpServers"), got ${kind(document)}.`,
    );
    return { config, problems: read.problems };
  }
  checkKeys(read, "", document, TOP_KEYS);
  const sources = (["servers", "mcpServers"] as const).filter((key) => document[key] !== undefined);
  if (sources.length === 0) {
    read.problems.push(
      `servers: missing; write {"servers": {"NAME": {"command": "npx", "args": [...]}}} (a Claude/Cursor "mcpServers" object works too).`,
    );
  }
  for (const key of sources) {
    const servers = document[key];
    if (!isObject(servers)) {
      read.problems.push(`${key}: expected an object of servers by name, got ${kind(servers)}.`);
      continue;
    }
    for (const [name, raw] of Object.entries(servers)) {
      const path = `${key}.${name}`;
      const nameProblem = serverNameProblem(name);
      if (nameProblem !== undefined) {
        read.problems.push(`${path}: ${nameProblem}`);
      } else if (config.servers[name] !== undefined) {
        read.problems.push(`${path}: "${name}" is also defined under "servers"; keep one.`);
      }
      const { server, catalog } = readServer(read, path, raw);
      if (server) config.servers[name] = server;
      if (catalog !== undefined) config.catalogs[name] = { file: catalog, at: `${path}.catalog` };
    }
  }
  const mode = read.oneOf<GatewayMode>("mode", document.mode, ["bridge", "reveal", "direct"]);
  const naming = read.oneOf<NamingOption>("naming", document.naming, ["prefixed", "bare"]);
  const profile = read.string("profile", document.profile);
  Object.assign(
    config,
    optional("pinTools", read.boolean("pinTools", document.pinTools)),
    optional("approvals", read.string("approvals", document.approvals)),
    optional("mode", mode),
    optional("naming", naming),
    optional("profile", profile),
    optional("state", read.string("state", document.state)),
    optional("auth", readGatewayAuth(read, document.auth)),
    optional("embedder", readEmbedder(read, "embedder", document.embedder)),
  );
  const learning = readLearning(read, document.learning);
  if (learning !== undefined) config.learning = learning;
  if (document.budget !== undefined) {
    if (!isObject(document.budget))
      read.problems.push(`budget: expected an object, got ${kind(document.budget)}.`);
    else {
      const budget = document.budget;
      checkKeys(read, "budget.", budget, BUDGET_KEYS);
      config.budget = {
        ...optional("perToolResult", read.positive("budget.perToolResult", budget.perToolResult)),
        ...optional("totalResults", read.positive("budget.totalResults", budget.totalResults)),
        ...optional(
          "toolDefinitions",
          read.positive("budget.toolDefinitions", budget.toolDefinitions),
        ),
      };
    }
  }
  return { config, problems: read.problems };
}
