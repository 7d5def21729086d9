/** Validation of tool definitions: every problem in a batch is reported at once, with its fix. */
import type { ToolIssue } from "../errors.js";
import { keywordWalk, schemaClean } from "./check-schema-keywords.js";
import { schemaShapeProblem } from "./check-schema-shape.js";
import { formatCharacter, nameSkeleton } from "./name-skeleton.js";
import type { ToolDefinition } from "./types.js";

/** Which tool names are accepted.
 * `strict` (default): `^[A-Za-z0-9_.:/-]{1,128}$`, safe to map onto every provider's rules.
 * `lenient`: any 1–256 characters without control characters or surrounding whitespace, for
 * imported benchmark data with names such as `PDF&URLTool`. */
export type NameRule = "strict" | "lenient";

/** Options of `validateTools`. */
export interface ValidateToolsOptions {
  /** Name rule; default `strict`. */
  nameRule?: NameRule;
  /** Names already taken (e.g. by the catalog the batch is added to); a clash is `duplicate_tool`. */
  existing?: { has(name: string): boolean };
  /** The name already taken under each skeleton (see `nameSkeleton`); a different name with the
   * same skeleton is `name_confusable`. */
  existingSkeletons?: { get(skeleton: string): string | undefined };
  /** Where the batch came from (a file path); copied onto every issue. */
  source?: string;
}

/** The outcome of validating a batch: the usable tools (normalised and frozen), every issue,
 * and warnings about kept tools (`schema_unchecked`: an input schema that cannot be checked, so
 * calls to the tool are refused unless the host sets `uncheckedSchemas: "allow"`). */
export interface ValidationResult {
  valid: ToolDefinition[];
  issues: ToolIssue[];
  warnings: ToolIssue[];
}

/** A value to validate together with where it came from. */
export interface SourcedEntry {
  value: unknown;
  source?: string | undefined;
}

const STRICT_NAME = /^[A-Za-z0-9_.:/-]{1,128}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject
const CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range is meant
const ASCII = /^[\u0000-\u007f]*$/;
const DEFER = new Set(["never", "auto", "always"]);
const TRUNCATION = new Set(["head", "tail", "head-tail", "smart"]);
const STRING_FIELDS = ["title", "server", "category", "searchHint"] as const;
const LIST_FIELDS = ["tags", "keywords", "profiles"] as const;

/**
 * Checks a batch of candidate tools and returns the valid ones plus every problem found.
 * A missing `description` becomes `""` and a missing `inputSchema` becomes `{ type: "object" }`
 * (tools without parameters are common in code); neither is reported. Unknown fields (such as
 * MCP `execution` or `_meta`) are dropped. For duplicate names the first occurrence is kept.
 */
export function validateTools(
  tools: readonly unknown[],
  options: ValidateToolsOptions = {},
): ValidationResult {
  return validateEntries(
    tools.map((value) => ({ value, source: options.source })),
    options,
  );
}

/**
 * Tools this module returned, with the name rule they passed: handed back (a catalog loaded from
 * files, then given to `createToolSift`), they are not checked again. Returned tools are frozen
 * and their schemas are treated as immutable once loaded (as by the catalog's fingerprint).
 */
const checkedTools = new WeakMap<object, NameRule>();

/** Like `validateTools`, but each entry carries its own source (used by the file loaders).
 * `schemaWarnings: false` skips the keyword walk behind `warnings` (the catalog drops them). */
export function validateEntries(
  entries: readonly SourcedEntry[],
  options: Omit<ValidateToolsOptions, "source"> = {},
  { schemaWarnings = true }: { schemaWarnings?: boolean } = {},
): ValidationResult {
  const valid: ToolDefinition[] = [];
  const issues: ToolIssue[] = [];
  const warnings: ToolIssue[] = [];
  const seen = new Map<string, number>();
  // skeleton → the batch name that claimed it, so look-alike names cannot sit side by side
  const skeletons = new Map<string, string>();
  entries.forEach((entry, index) => {
    const found: ToolIssue[] = [];
    const report = (tool: string, code: string, message: string) => {
      const issue: ToolIssue = { tool, code, message };
      if (entry.source !== undefined) issue.source = entry.source;
      found.push(issue);
    };
    const checked = checkTool(entry.value, index, options.nameRule ?? "strict", report, {
      keywords: schemaWarnings,
    });
    const tool = checked?.tool;
    if (tool !== undefined && found.length === 0) {
      const first = seen.get(tool.name);
      if (first !== undefined) {
        report(
          tool.name,
          "duplicate_tool",
          `Tool "${tool.name}" (entry #${index}) has the same name as entry #${first}; rename one of them, or give each tool its server (fromMCPToolsList(result, { server }); the file loader uses the file name) so that duplicates: "qualify" calls them server/name.`,
        );
      } else if (options.existing?.has(tool.name)) {
        report(
          tool.name,
          "duplicate_tool",
          `Tool "${tool.name}" is already in the catalog; use replace() to update it, or rename the new tool.`,
        );
      } else {
        const skeleton = nameSkeleton(tool.name);
        const twin = skeletons.get(skeleton) ?? options.existingSkeletons?.get(skeleton);
        // ASCII names that differ in case stay apart visibly (benchmark data has calculate_BMI
        // beside calculate_bmi); a non-ASCII look-alike does not
        if (
          twin !== undefined &&
          twin !== tool.name &&
          !(ASCII.test(twin) && ASCII.test(tool.name))
        ) {
          report(
            tool.name,
            "name_confusable",
            `Tool ${JSON.stringify(tool.name)} looks the same as the tool ${JSON.stringify(twin)} (they differ only in look-alike characters), so a model could not tell them apart; rename one of them using plain ASCII.`,
          );
        } else {
          seen.set(tool.name, index);
          skeletons.set(skeleton, tool.name);
          valid.push(tool);
          // the size check passed in checkTool, and with it the keywords of most schemas
          const unchecked =
            schemaWarnings && !checked?.keywordsClean ? keywordWalk(tool.inputSchema) : undefined;
          if (unchecked !== undefined) {
            const warning: ToolIssue = {
              tool: tool.name,
              code: "schema_unchecked",
              message: `Tool "${tool.name}": its inputSchema cannot be checked (${unchecked}), so its calls will be refused; fix the schema, or let such calls run unchecked with uncheckedSchemas: "allow".`,
            };
            if (entry.source !== undefined) warning.source = entry.source;
            warnings.push(warning);
          }
        }
      }
    }
    issues.push(...found);
  });
  return { valid, issues, warnings };
}

type Report = (tool: string, code: string, message: string) => void;

/** A candidate that passed `checkTool`: the normalised frozen tool, and whether its input
 * schema's keywords were found clean on the way (by the walk that checked its size). */
interface CheckedTool {
  tool: ToolDefinition;
  keywordsClean: boolean;
}

// Checks one candidate; returns the normalised frozen tool, or undefined when it has issues.
// `keywords`: the caller wants the keyword check too, so the size walk of the input schema
// checks its keywords in the same pass (`schemaClean`).
function checkTool(
  value: unknown,
  index: number,
  nameRule: NameRule,
  report: Report,
  { keywords }: { keywords: boolean },
): CheckedTool | undefined {
  if (!isPlainObject(value)) {
    report(
      `#${index}`,
      "tool_not_object",
      `Entry #${index} is ${describe(value)}, not a tool object; write it as {"name", "description", "inputSchema"}.`,
    );
    return undefined;
  }
  const passed = checkedTools.get(value);
  if (passed === "strict" || passed === nameRule) {
    return { tool: value as unknown as ToolDefinition, keywordsClean: false };
  }
  const raw = value as Record<string, unknown>;
  const label = typeof raw.name === "string" && raw.name !== "" ? raw.name : `#${index}`;
  let ok = checkName(raw.name, label, nameRule, report);
  const fail = (code: string, message: string) => {
    report(label, code, `Tool "${label}": ${message}`);
    ok = false;
  };

  if (raw.description !== undefined && typeof raw.description !== "string") {
    fail("field_invalid", `description is ${describe(raw.description)}; make it a string.`);
  }
  const inputSchema = raw.inputSchema === undefined ? { type: "object" } : raw.inputSchema;
  checkSchema("inputSchema", inputSchema, fail);
  if (raw.outputSchema !== undefined) checkSchema("outputSchema", raw.outputSchema, fail);
  // a clean input schema keeps the size limits too; any other is checked for size alone
  const keywordsClean = keywords && raw.inputSchema !== undefined && schemaClean(raw.inputSchema);
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const schema = raw[field];
    const problem =
      schema === undefined || (field === "inputSchema" && keywordsClean)
        ? undefined
        : schemaShapeProblem(schema);
    if (problem !== undefined) fail("schema_too_large", `${field} ${problem}.`);
  }
  if (raw.annotations !== undefined && !isPlainObject(raw.annotations)) {
    fail("field_invalid", `annotations is ${describe(raw.annotations)}; make it an object.`);
  }
  for (const field of STRING_FIELDS) {
    if (raw[field] !== undefined && typeof raw[field] !== "string") {
      fail("field_invalid", `${field} is ${describe(raw[field])}; make it a string.`);
    }
  }
  for (const field of LIST_FIELDS) {
    const list = raw[field];
    if (list !== undefined && !(Array.isArray(list) && list.every((x) => typeof x === "string"))) {
      fail("field_invalid", `${field} must be an array of strings, e.g. ["files"].`);
    }
  }
  if (raw.defer !== undefined && !DEFER.has(raw.defer as string)) {
    fail("field_invalid", `defer is ${describe(raw.defer)}; use "never", "auto" or "always".`);
  }
  if (raw.core !== undefined && typeof raw.core !== "boolean") {
    fail("field_invalid", `core is ${describe(raw.core)}; use true or false.`);
  }
  const budget = raw.maxResultTokens;
  if (budget !== undefined && !(Number.isInteger(budget) && (budget as number) > 0)) {
    fail("field_invalid", `maxResultTokens is ${describe(budget)}; use a positive whole number.`);
  }
  if (raw.truncation !== undefined && !TRUNCATION.has(raw.truncation as string)) {
    fail(
      "field_invalid",
      `truncation is ${describe(raw.truncation)}; use "head", "tail", "head-tail" or "smart".`,
    );
  }
  if (raw.handler !== undefined && typeof raw.handler !== "function") {
    fail(
      "field_invalid",
      `handler is ${describe(raw.handler)}; make it a function or leave it out.`,
    );
  }
  if (!ok) return undefined;
  const tool = normalise(raw, inputSchema as Record<string, unknown>);
  checkedTools.set(tool, nameRule);
  return { tool, keywordsClean };
}

function checkName(name: unknown, label: string, rule: NameRule, report: Report): boolean {
  const bad = (why: string, fix: string) => {
    report(label, "name_invalid", `Tool "${label}": ${why}; ${fix}`);
    return false;
  };
  if (name === undefined) return bad("has no name", `add a "name" such as "list_files".`);
  if (typeof name !== "string") return bad(`name is ${describe(name)}`, "make it a string.");
  if (name === "") return bad("name is empty", `give it a name such as "list_files".`);
  const hidden = formatCharacter(name);
  if (hidden !== undefined) {
    return bad(
      `name contains the invisible format character ${hidden.codePoint} at position ${hidden.index}, which would show it as a different name`,
      "remove it.",
    );
  }
  if (rule === "strict") {
    if (name.length > 128) {
      return bad(`name is ${name.length} characters long (max 128)`, "shorten it.");
    }
    if (!STRICT_NAME.test(name)) {
      const chars = [...new Set(name.replace(/[A-Za-z0-9_.:/-]/g, ""))].join("");
      const suggestion = name.replace(/[^A-Za-z0-9_.:/-]+/g, "_");
      return bad(
        `name contains characters outside [A-Za-z0-9_.:/-] (${JSON.stringify(chars)})`,
        `rename it, e.g. "${suggestion}", or load with nameRule: "lenient".`,
      );
    }
    return true;
  }
  if (name.length > 256)
    return bad(`name is ${name.length} characters long (max 256)`, "shorten it.");
  if (CONTROL.test(name)) return bad("name contains control characters", "remove them.");
  if (name.trim() !== name) return bad("name starts or ends with whitespace", "trim it.");
  return true;
}

function checkSchema(field: string, schema: unknown, fail: (code: string, m: string) => void) {
  if (!isPlainObject(schema)) {
    fail(
      "schema_invalid",
      `${field} is ${describe(schema)}; make it a JSON Schema object such as {"type": "object", "properties": {}}.`,
    );
  } else if ((schema as Record<string, unknown>).type !== "object") {
    const type = (schema as Record<string, unknown>).type;
    fail(
      "schema_invalid",
      `${field} has root type ${describe(type)}; its root must be {"type": "object"} (wrap a single value in a property).`,
    );
  }
}

function normalise(raw: Record<string, unknown>, inputSchema: Record<string, unknown>) {
  const tool: Record<string, unknown> = {
    name: raw.name,
    description: raw.description ?? "",
    inputSchema,
  };
  const optional = ["title", "outputSchema", "annotations", "server", "category", "searchHint"];
  if (typeof raw.upstreamName === "string") tool.upstreamName = raw.upstreamName;
  for (const key of [...optional, "defer", "core", "maxResultTokens", "truncation", "handler"]) {
    if (raw[key] !== undefined) tool[key] = raw[key];
  }
  // lists are copied and frozen: they are small, and a caller pushing a tag must not desync the index
  for (const key of LIST_FIELDS) {
    const list = raw[key];
    if (Array.isArray(list)) tool[key] = Object.freeze([...list]);
  }
  return Object.freeze(tool) as unknown as ToolDefinition;
}

/** Tests for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === undefined) return "missing";
  return `a ${typeof value}`;
}
