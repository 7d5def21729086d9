// Owns: ready-made embedders for semantic search (word vectors offline, OpenAI-compatible HTTP).
// Must not import: disclosure, providers, mcp, cli (an optional subpath, `toolsift/embedders`).
export { createHTTPEmbedder, type HTTPEmbedderOptions } from "./http-embedder.js";
export { createWordVectorEmbedder } from "./word-vector-embedder.js";
export {
  buildWordVectorTable,
  parseWordVectorTable,
  type WordVectorSource,
  type WordVectorTable,
} from "./word-vector-table.js";
