/** Warnings about a whole request rather than one schema: too many tools, a cut description. */
import type { ToolDefinition } from "../catalog/index.js";
import { capChars } from "../internal/index.js";
import type { ProviderCapabilities } from "./provider-capabilities.js";
import type { ConversionWarning } from "./warnings.js";

/** A request-level warning (not tied to one tool's schema). */
export function requestWarning(
  code: ConversionWarning["code"],
  message: string,
  tool = "(request)",
): ConversionWarning {
  return { tool, path: "", code, message };
}

/** Warns when a request holds more tools than the provider accepts; nothing is dropped. */
export function toolLimitWarnings(
  count: number,
  capabilities: ProviderCapabilities,
): ConversionWarning[] {
  const limit = capabilities.maxTools;
  if (limit === undefined || count <= limit) return [];
  return [
    requestWarning(
      "tool_limit_exceeded",
      `${count} tools exceed ${capabilities.id}'s limit of ${limit}; the API will reject this request. Turn disclosure on (mode "on" or "auto") so most tools are deferred.`,
    ),
  ];
}

/** Cuts a description to the provider's limit, with a warning. */
export function fitDescription(
  tool: ToolDefinition,
  capabilities: ProviderCapabilities,
  warnings: ConversionWarning[],
): string {
  const limit = capabilities.maxDescriptionLength;
  if (limit === undefined || tool.description.length <= limit) return tool.description;
  warnings.push(
    requestWarning(
      "description_truncated",
      `description of ${tool.description.length} characters cut to ${limit}`,
      tool.name,
    ),
  );
  return capChars(tool.description, limit);
}
