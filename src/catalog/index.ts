// Owns: ToolDefinition, loading (arrays, MCP tools/list results, files), validation, change events, fingerprint.
// Must not import: anything else in src.
export type * from "./types.js";
