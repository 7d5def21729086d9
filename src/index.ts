// toolsift: tool catalog, search, disclosure and dispatch for LLM agents.
// The root entry loads no Node-only module and no optional peer.
export * from "./catalog/index.js";
export * from "./errors.js";
export * from "./policy/index.js";
export * from "./search/index.js";
