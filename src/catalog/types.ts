/** The shape of a tool as toolsift stores it, and the types that travel with it. */

/** A JSON value, as tools receive and return it. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON Schema object. Kept loose on purpose: real servers send draft-07 and 2020-12. */
export type JsonSchema = { [key: string]: unknown };

/** MCP tool annotations (hints about behaviour; never trusted for security). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** Whether a tool's schema may be deferred: `never` keeps it loaded, `always` defers it whenever
 * disclosure is active, `auto` lets disclosure decide. Unset, the tool's origin decides. */
export type DeferPolicy = "never" | "auto" | "always";

/** How an oversized result is cut. `smart` keeps JSON and MCP content structure. */
export type TruncationStrategy = "head" | "tail" | "head-tail" | "smart";

/** MCP-style content blocks a handler may return. */
export type ToolContent =
  | { type: "text"; text: string; [key: string]: unknown }
  | { type: "image"; data: string; mimeType: string; [key: string]: unknown }
  | { type: "audio"; data: string; mimeType: string; [key: string]: unknown }
  | { type: "resource_link"; uri: string; name?: string; [key: string]: unknown }
  | { type: "resource"; resource: { uri: string; [key: string]: unknown }; [key: string]: unknown };

/** What a handler returns: an MCP-style result, or any JSON value (wrapped as text). */
export interface ToolResult {
  content: ToolContent[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  [key: string]: unknown;
}

/** Context passed to a tool handler. */
export interface ToolCallContext {
  /** Session id the call belongs to. */
  session: string;
  /** Aborted when the caller gives up on the call. */
  signal?: AbortSignal;
  /** What the host framework passed with the call (`ExecuteInput.host`), unchanged; adapters use
   * it to hand their own per-call options (an AI SDK tool call id, say) to the tool they wrap. */
  host?: unknown;
  /** The name the tool's server knows it by (`ToolDefinition.upstreamName`, else its name):
   * forward the call to `server` under this name. Set by `execute`. */
  upstreamName?: string;
}

/** Runs a tool. May return an MCP-style `ToolResult` or any JSON-serialisable value. */
export type ToolHandler = (
  args: { [key: string]: unknown },
  context: ToolCallContext,
) => unknown | Promise<unknown>;

/** One tool in the catalog. Only `name`, `description` and `inputSchema` are required. */
export interface ToolDefinition {
  /** Unique name in the catalog; `^[A-Za-z0-9_.:/-]{1,128}$`. Providers map it to their rules. */
  name: string;
  description: string;
  /** JSON Schema of the arguments; its root must be an object schema. */
  inputSchema: JsonSchema;
  title?: string;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** MCP server (or other source) the tool comes from: the connection or file, set by the host. */
  server?: string;
  /**
   * The name the tool's server knows it by, set when toolsift renamed it (`create_issue` for
   * `github/create_issue`, a name several servers share). Calls carry it as `upstreamName`.
   */
  upstreamName?: string;
  category?: string;
  tags?: string[];
  /** A curated phrase for search; weighted above the description. */
  searchHint?: string;
  keywords?: string[];
  /** Names of the profiles this tool belongs to. */
  profiles?: string[];
  /** Defer policy. `never` pins the tool loaded in every turn; `always` and `auto` make it
   * deferrable (on a host tool, which is core by default, `auto` restores deferral). Unset: the
   * default by origin (see `core`). */
  defer?: DeferPolicy;
  /** Whether the tool is core: loaded in every turn while a definitions budget or a provider's
   * tool limit leaves room (unlike `defer: "never"`, which nothing moves). Default by origin: a
   * tool the host defines (no `server`) is core, a tool from an MCP server (every loader sets
   * `server`) is deferrable; `core: false` defers a host tool, `core: true` keeps an MCP tool. */
  core?: boolean;
  /** Per-tool result budget, in tokens. */
  maxResultTokens?: number;
  truncation?: TruncationStrategy;
  handler?: ToolHandler;
}

/** A change to the catalog, delivered to `onChange` listeners after it is applied. */
export type CatalogChange =
  | { type: "add"; tool: ToolDefinition }
  | { type: "remove"; tool: ToolDefinition }
  | { type: "replace"; tool: ToolDefinition; previous: ToolDefinition };

/** A live, validated set of tools with unique names. */
export interface Catalog {
  /** Adds tools; throws InvalidToolError listing every problem (nothing is added then). */
  add(tools: ToolDefinition | readonly ToolDefinition[]): void;
  /** Removes a tool; returns false when it did not exist. */
  remove(name: string): boolean;
  /** Replaces (or adds) a tool with the same name. */
  replace(tool: ToolDefinition): void;
  get(name: string): ToolDefinition | undefined;
  has(name: string): boolean;
  /** Every tool, sorted by name (deterministic). */
  list(): readonly ToolDefinition[];
  readonly size: number;
  /** A stable hash of the catalog's content (handlers excluded); changes when any tool changes. */
  fingerprint(): string;
  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: CatalogChange) => void): () => void;
}
