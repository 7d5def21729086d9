import type { ToolDefinition } from "../../catalog/index.js";
import type { CountTokens } from "../types.js";

/**
 * Estimates tokens as characters / 4, rounded up.
 *
 * Cheap and provider-free; close enough for threshold decisions on JSON (o200k counts JSON
 * schemas at roughly 3.5–4.5 characters per token). Plug a real counter through `countTokens`.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The text a definition costs when sent in full: name, description and input schema as JSON. */
export function definitionText(tool: ToolDefinition): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  });
}

/** Memoises definition token counts per definition object and counter. */
export function createDefinitionCounter(count: CountTokens): (tool: ToolDefinition) => number {
  const memo = new WeakMap<ToolDefinition, number>();
  return (tool) => {
    let tokens = memo.get(tool);
    if (tokens === undefined) {
      tokens = count(definitionText(tool));
      memo.set(tool, tokens);
    }
    return tokens;
  };
}
