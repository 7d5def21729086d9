/** Schema conversions memoised per tool object, so a tool converted once is not converted again next turn. */
import type { ToolDefinition } from "../../catalog/index.js";

/** Memoises one conversion per tool object and option key (tools are immutable once planned). */
export function createConversionCache<T>(): (
  tool: ToolDefinition,
  key: string,
  build: () => T,
) => T {
  const cache = new WeakMap<ToolDefinition, Map<string, T>>();
  return (tool, key, build) => {
    let perTool = cache.get(tool);
    if (!perTool) {
      perTool = new Map();
      cache.set(tool, perTool);
    }
    let value = perTool.get(key);
    if (value === undefined) {
      value = build();
      perTool.set(key, value);
    }
    return value;
  };
}
