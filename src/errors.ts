/**
 * Errors thrown to developers. Every error carries a snake_case `code` and a message that names
 * the failure, the item and a next step. Expected outcomes (no match, a dropped tool) are returned,
 * never thrown.
 */

/** Machine-readable error codes; stable across releases. */
export type ToolsiftErrorCode =
  | "invalid_tool"
  | "duplicate_tool"
  | "tool_not_found"
  | "invalid_query"
  | "invalid_regex"
  | "invalid_option"
  | "invalid_catalog_file"
  | "invalid_arguments"
  | "missing_required_tools"
  | "too_many_tools"
  | "invalid_learning_file"
  | "internal";

/** Base class of every error toolsift throws. */
export class ToolsiftError extends Error {
  readonly code: ToolsiftErrorCode;

  constructor(code: ToolsiftErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolsiftError";
    this.code = code;
  }
}

/** Tests whether a value is a ToolsiftError (works across duplicated package copies). */
export function isToolsiftError(value: unknown): value is ToolsiftError {
  return (
    value instanceof ToolsiftError ||
    (value instanceof Error &&
      typeof (value as { code?: unknown }).code === "string" &&
      value.name.startsWith("Toolsift"))
  );
}

/** One problem found while validating a tool definition. */
export interface ToolIssue {
  /** Name of the tool, or `#index` when the tool has no usable name. */
  tool: string;
  /** snake_case problem code, e.g. `duplicate_tool`, `schema_invalid`, `name_invalid`. */
  code: string;
  /** What is wrong and how to fix it. */
  message: string;
  /** Where the tool came from (file path), when known. */
  source?: string;
}

/** Thrown when one or more tool definitions are invalid; `issues` lists all of them at once. */
export class InvalidToolError extends ToolsiftError {
  readonly issues: readonly ToolIssue[];

  constructor(issues: readonly ToolIssue[]) {
    const head = issues
      .slice(0, 5)
      .map((issue) => `${issue.tool}: ${issue.message}`)
      .join("; ");
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
    super("invalid_tool", `${issues.length} invalid tool definition(s): ${head}${more}`);
    this.name = "ToolsiftInvalidToolError";
    this.issues = issues;
  }
}

/** Thrown when a tool name is unknown; `suggestions` holds the closest existing names. */
export class ToolNotFoundError extends ToolsiftError {
  readonly toolName: string;
  readonly suggestions: readonly string[];

  constructor(toolName: string, suggestions: readonly string[]) {
    const hint = suggestions.length > 0 ? ` Closest: ${suggestions.join(", ")}.` : "";
    super("tool_not_found", `Unknown tool "${toolName}".${hint}`);
    this.name = "ToolsiftToolNotFoundError";
    this.toolName = toolName;
    this.suggestions = suggestions;
  }
}

/** Why `requireTools` could not provide a tool. */
export type MissingToolReason = "not_found" | "hidden" | "deferred";

/** One tool `requireTools` could not provide, with what to do about it. */
export interface MissingTool {
  name: string;
  reason: MissingToolReason;
  /** Closest catalog names (for `not_found`), best first; empty otherwise. */
  suggestions: readonly string[];
}

const missingToolHints: Record<MissingToolReason, string> = {
  not_found: "is not in the catalog",
  hidden: "is hidden by policy (allow it in the policy or profile)",
  deferred: 'would be deferred (add it to neverDefer or set defer: "never")',
};

/** Thrown by `requireTools` (code `missing_required_tools`); `missing` lists every tool, with fields. */
export class MissingToolsError extends ToolsiftError {
  readonly missing: readonly MissingTool[];

  constructor(missing: readonly MissingTool[]) {
    const problems = missing.map((tool) => {
      const closest =
        tool.suggestions.length > 0 ? ` (closest: ${tool.suggestions.join(", ")})` : "";
      return `"${tool.name}" ${missingToolHints[tool.reason]}${closest}`;
    });
    super(
      "missing_required_tools",
      `Required tools are unavailable: ${problems.join("; ")}. Fix these before starting the run.`,
    );
    this.name = "ToolsiftMissingToolsError";
    this.missing = missing;
  }
}
