// Owns: ToolDefinition, loading (arrays, MCP tools/list results, files), validation, change events, fingerprint.
// Must not import: anything else in src except errors.ts; no node: module (file loading is in ./node.ts).
export { schemaKeywordProblem } from "./check-schema-keywords.js";
export {
  MAX_ENUM_VALUES,
  MAX_PROPERTIES,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  schemaShapeProblem,
} from "./check-schema-shape.js";
export { type CatalogOptions, createCatalog } from "./create-catalog.js";
export {
  ContentHash,
  combineHashes,
  compareNames,
  fingerprintTool,
  fingerprintTools,
  hashCanonical,
  hashString,
  rememberFingerprint,
} from "./fingerprint-tools.js";
export {
  CATALOG_SHAPES,
  describeRenames,
  extractToolEntries,
  type FromMCPToolsListOptions,
  fromMCPToolsList,
  qualifyDuplicateNames,
  type RenamedTool,
} from "./from-mcp-tools-list.js";
export { type JsonErrorLocation, locateJsonError } from "./locate-json-error.js";
export { formatCharacter, nameSkeleton } from "./name-skeleton.js";
export type * from "./types.js";
export {
  type NameRule,
  type ValidateToolsOptions,
  type ValidationResult,
  validateTools,
} from "./validate-tools.js";
export {
  type ControlOption,
  MCP_ORIGIN,
  type SourceOptions,
  type ToolControl,
  toHostEntry,
  WIRE_FIELDS,
} from "./wire-entry.js";
