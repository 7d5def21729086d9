// Owns: the BM25F index, the query language, regex mode, ranking, explanations.
// Must not import: disclosure, providers, mcp, cli.
export type * from "./types.js";
