/** The formatter's memory of its last request, the default context of `parseCalls` and `formatResults`. */
import { ToolsiftError } from "../errors.js";
import type { FormattedTools } from "./types.js";

/** Remembers the last formatted request, the default context of `parseCalls` and `formatResults`. */
export function lastFormatted<T extends FormattedTools<unknown, unknown, unknown>>(
  provider: string,
): { set(value: T): T; get(given: T | undefined): T } {
  let current: T | undefined;
  return {
    set(value) {
      current = value;
      return value;
    },
    get(given) {
      const found = given ?? current;
      if (!found) {
        throw new ToolsiftError(
          "invalid_option",
          `The ${provider} formatter has not formatted a request yet; call formatTools first or pass its result.`,
        );
      }
      return found;
    },
  };
}
