/** OpenAI function parameters for one tool (plain or strict), shared by Chat and Responses. */
import type { JsonSchema, ToolDefinition } from "../../catalog/index.js";
import { requestWarning } from "../request-warnings.js";
import { createConversionCache } from "../schema/conversion-cache.js";
import type { StrictConversion } from "../schema/strict-schema.js";
import type { CallDecoder } from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import {
  restoreOpenAIStrictArguments,
  toOpenAIParameters,
  toOpenAIStrictSchema,
} from "./schema.js";

/** A tool's parameters as sent, whether they are strict, and how to decode its calls. */
export interface OpenAIParameters {
  parameters: JsonSchema;
  strict: boolean;
  restore?: CallDecoder["restore"];
}

/**
 * Returns a converter that gives each tool its `parameters`: strict when asked and possible
 * (a tool that cannot be strict without changing meaning is sent non-strict, with a warning).
 */
export function createParameterConverter() {
  const plain = createConversionCache<{ schema: JsonSchema; warnings: ConversionWarning[] }>();
  const strict = createConversionCache<StrictConversion>();
  return (
    tool: ToolDefinition,
    wantStrict: boolean,
    warnings: ConversionWarning[],
  ): OpenAIParameters => {
    if (wantStrict) {
      const converted = strict(tool, "strict", () =>
        toOpenAIStrictSchema(tool.inputSchema, { tool: tool.name }),
      );
      if (converted.strict) {
        warnings.push(...converted.warnings);
        return {
          parameters: converted.schema,
          strict: true,
          // strict mode makes optional properties nullable; the nulls are removed again
          restore: (args) => restoreOpenAIStrictArguments(args, tool.inputSchema),
        };
      }
      warnings.push(
        requestWarning("strict_unavailable", `sent non-strict: ${converted.reason}`, tool.name),
      );
    }
    const converted = plain(tool, "plain", () =>
      toOpenAIParameters(tool.inputSchema, { tool: tool.name }),
    );
    warnings.push(...converted.warnings);
    return { parameters: converted.schema, strict: false };
  };
}
