// toolsift: tool catalog, search, disclosure and dispatch for LLM agents.
export type * from "./catalog/index.js";
export * from "./errors.js";
export type * from "./search/index.js";
