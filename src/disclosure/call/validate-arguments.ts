import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonSchema, ToolDefinition } from "../../catalog/index.js";
import { schemaKeywordProblem } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";
import { capChars, errorText, syncRequire, wellFormed } from "../../internal/index.js";
import { argumentProblem } from "./check-argument-values.js";
import { coerceScalars } from "./coerce-scalars.js";

/** The result of checking arguments against a tool's input schema. `code` of a refusal:
 * `invalid_arguments` (the model can fix them) or `schema_unusable` (the tool's schema cannot be
 * checked, so the call is refused unless `uncheckedSchemas: "allow"`). */
export type ArgumentCheck =
  | { ok: true; arguments: { [key: string]: unknown }; repairs: string[]; checked: boolean }
  | {
      ok: false;
      code: "invalid_arguments" | "schema_unusable";
      message: string;
      problems: string;
      repairs: string[];
    };

/** Options of `checkArguments`. */
export interface CheckArgumentsOptions {
  /** A tool whose schema cannot be compiled: `refuse` its calls (default) or `allow` them
   * unchecked. */
  uncheckedSchemas?: "refuse" | "allow";
}

type Dialect = "draft-07" | "2019-09" | "2020-12";

// validateSchema off: schemaKeywordProblem has checked the schema, and the meta-schema check
// was most of the first-call cost on large schemas
const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  verbose: true,
  logger: false,
  validateSchema: false,
} as const;
const instances = new Map<Dialect, { ajv: Ajv; compiles: number }>();
/**
 * Compiles one Ajv instance serves before a fresh one replaces it. An instance keeps every
 * pattern and code fragment it ever generated in its scope (removeSchema does not free them):
 * 5,000 schema replacements grew the heap by 35 MB. A retired instance is collected once the
 * validators it made are gone; a new one costs a few ms against ~10 ms per compile.
 */
export const COMPILES_PER_AJV = 256;
/** A compiled schema, or why it could not be compiled. */
export type CompiledSchema = { validate: ValidateFunction } | { problem: string };
// per schema object, so a replaced or removed tool's validator goes with its schema
const compiled = new WeakMap<JsonSchema, CompiledSchema>();

function dialectOf(schema: JsonSchema): Dialect {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("2020-12")) return "2020-12";
  if (uri.includes("2019-09")) return "2019-09";
  return "draft-07";
}

/** The Ajv classes and the formats plugin: Ajv costs ~100 ms to load, so it loads on the first
 * argument check (a search never pays for it). */
interface AjvClasses {
  Ajv: typeof Ajv;
  Ajv2019: typeof Ajv2019;
  Ajv2020: typeof Ajv2020;
  addFormats: (ajv: Ajv) => unknown;
}
let classes: AjvClasses | undefined;

// ajv and ajv-formats are CommonJS: `module.exports` is the class (or plugin) itself, with the
// named export and `default` on it; an `import()` namespace wraps that once more in `default`
function ajvClassesOf(modules: readonly unknown[]): AjvClasses {
  const [main, draft2019, draft2020, formats] = modules as Record<string, unknown>[];
  const plugin = (formats?.default ?? formats) as { default?: unknown };
  return {
    Ajv: main?.Ajv as typeof Ajv,
    Ajv2019: draft2019?.Ajv2019 as typeof Ajv2019,
    Ajv2020: draft2020?.Ajv2020 as typeof Ajv2020,
    addFormats: (plugin.default ?? plugin) as AjvClasses["addFormats"],
  };
}

function ajvClasses(): AjvClasses {
  if (classes) return classes;
  const load = syncRequire(import.meta.url);
  if (!load) {
    throw new ToolsiftError(
      "internal",
      "Argument validation needs Ajv, which loads on first use, and this runtime has no synchronous require. Call `await loadArgumentValidator()` once before checking arguments (execute() does).",
    );
  }
  classes = ajvClassesOf(["ajv", "ajv/dist/2019.js", "ajv/dist/2020.js", "ajv-formats"].map(load));
  return classes;
}

/** Loads Ajv ahead of a check: through `require` where there is one, else with `import()` (so
 * runtimes without `require` can validate too). `executeCall` awaits it before validating. */
export async function loadArgumentValidator(): Promise<void> {
  if (classes || syncRequire(import.meta.url)) return;
  const modules = await Promise.all([
    import("ajv"),
    import("ajv/dist/2019.js"),
    import("ajv/dist/2020.js"),
    import("ajv-formats"),
  ]);
  classes ??= ajvClassesOf(modules);
}

function ajvFor(dialect: Dialect): Ajv {
  let entry = instances.get(dialect);
  if (!entry || entry.compiles >= COMPILES_PER_AJV) {
    const { Ajv, Ajv2019, Ajv2020, addFormats } = ajvClasses();
    // one shared instance per dialect: a new instance per compile is 30x slower
    const ajv =
      dialect === "2020-12"
        ? new Ajv2020(AJV_OPTIONS)
        : dialect === "2019-09"
          ? new Ajv2019(AJV_OPTIONS)
          : new Ajv(AJV_OPTIONS);
    addFormats(ajv);
    entry = { ajv, compiles: 0 };
    instances.set(dialect, entry);
  }
  entry.compiles += 1;
  return entry.ajv;
}

/** How many schemas and generated values the live Ajv instances hold (for tests of the
 * memory bound; reads Ajv internals). */
export function ajvRetained(): number {
  let count = 0;
  for (const { ajv } of instances.values()) {
    const internals = ajv as unknown as {
      _cache: Map<unknown, unknown>;
      scope: { _values: Record<string, Map<unknown, unknown>> };
    };
    count += internals._cache.size;
    for (const values of Object.values(internals.scope._values)) count += values.size;
  }
  return count;
}

/** Compiles a schema once (cached per schema object), or says why it cannot be. */
export function compileSchema(schema: JsonSchema): CompiledSchema {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  const problem = schemaKeywordProblem(schema);
  if (problem !== undefined) {
    const outcome = { problem };
    compiled.set(schema, outcome);
    return outcome;
  }
  const dialect = dialectOf(schema);
  const copy: JsonSchema = { ...schema };
  // draft-04/06 URIs are unknown to Ajv's draft-07 class, and a root $id could clash between
  // two tools; both are irrelevant to checking one call's arguments
  if (
    dialect === "draft-07" &&
    typeof copy.$schema === "string" &&
    !copy.$schema.includes("draft-07")
  ) {
    delete copy.$schema;
  }
  delete copy.$id;
  const ajv = ajvFor(dialect);
  let outcome: CompiledSchema;
  try {
    outcome = { validate: ajv.compile(copy) };
  } catch (error) {
    outcome = { problem: `Ajv could not compile it (${shortErrorText(error)})` };
  } finally {
    // Ajv keeps every compiled schema in its own cache: dropped here, the validator lives as long
    // as the tool's schema object does (5,000 replacements grew the heap by 200 MB before)
    try {
      ajv.removeSchema(copy);
    } catch {
      // nothing cached
    }
  }
  compiled.set(schema, outcome);
  return outcome;
}

/** A thrown value's text, made well-formed and cut to 200 characters for a model-facing message. */
function shortErrorText(error: unknown): string {
  return capChars(wellFormed(errorText(error)), 200);
}

function clip(value: unknown, max = 300): string {
  const text = JSON.stringify(value) ?? "undefined";
  return capChars(text, max);
}

function relevantPart(error: ErrorObject): unknown {
  const parent = (error.parentSchema ?? {}) as JsonSchema;
  const properties = (parent.properties ?? {}) as JsonSchema;
  if (error.keyword === "required") {
    const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
    return { required: parent.required, properties: { [missing]: properties[missing] ?? {} } };
  }
  if (error.keyword === "additionalProperties") return { allowed: Object.keys(properties) };
  return parent;
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath || "(root)";
  const extra =
    error.keyword === "additionalProperties"
      ? ` "${String((error.params as { additionalProperty?: unknown }).additionalProperty)}"`
      : "";
  return `- at ${at}: ${error.message ?? "is invalid"}${extra}; schema: ${clip(relevantPart(error))}`;
}

/**
 * Checks arguments against a tool's input schema (Ajv; draft-07, 2019-09 or 2020-12 chosen by
 * `$schema`; unlabelled schemas as draft-07; strict off; compiled on first use and cached).
 *
 * On failure, strings that hold what the schema wants (`"5"` for a number, `"true"` for a
 * boolean, `"[1]"` for an array) are converted and the check runs again; each conversion is
 * reported as a repair. Other failures return a message quoting the relevant schema parts.
 */
export function checkArguments(
  tool: ToolDefinition,
  args: { [key: string]: unknown },
  options: CheckArgumentsOptions = {},
): ArgumentCheck {
  const refuse = (
    code: "invalid_arguments" | "schema_unusable",
    problems: string,
    next: string,
  ) => ({
    ok: false as const,
    code,
    repairs: [],
    problems,
    message: `Tool "${tool.name}" did not run: ${problems}. ${next}`,
  });
  const badValues = argumentProblem(args);
  if (badValues !== undefined) {
    return refuse(
      "invalid_arguments",
      `its arguments cannot be used: ${badValues}`,
      "Fix the arguments and call it again.",
    );
  }
  const schema = compileSchema(tool.inputSchema);
  if ("problem" in schema) {
    if (options.uncheckedSchemas === "allow") {
      return { ok: true, arguments: args, repairs: [], checked: false };
    }
    return refuse(
      "schema_unusable",
      `its input schema cannot be checked (${schema.problem})`,
      'The tool\'s schema must be fixed by its server or host (a host may allow unchecked calls with uncheckedSchemas: "allow"); use another tool meanwhile.',
    );
  }
  const validate = schema.validate;
  // a plain boolean: Ajv's type guard would narrow the arguments to never on failure. A schema
  // that recurses without reading input (anyOf through its own $ref) overflows the stack here.
  let threw = false;
  let thrown: unknown;
  const passes = (value: unknown): boolean => {
    try {
      return validate(value);
    } catch (error) {
      if (!threw) thrown = error;
      threw = true;
      return false;
    }
  };
  const unusable = () =>
    refuse(
      "schema_unusable",
      `its input schema could not be checked against these arguments (${shortErrorText(thrown)})`,
      "The tool's schema must be fixed by its server or host; use another tool meanwhile.",
    );
  if (passes(args)) return { ok: true, arguments: args, repairs: [], checked: true };
  if (threw) return unusable();
  let current: { [key: string]: unknown } = args;
  const repairs: string[] = [];
  for (let round = 0; round < 3; round += 1) {
    const fixed = coerceScalars(current, validate.errors ?? []);
    if (!fixed) break;
    current = fixed.value;
    repairs.push(...fixed.repairs);
    if (passes(current)) return { ok: true, arguments: current, repairs, checked: true };
    if (threw) return unusable();
  }
  const errors = (validate.errors ?? []).slice(0, 5).map(describeError);
  const more =
    (validate.errors?.length ?? 0) > 5
      ? `\n(and ${(validate.errors?.length ?? 0) - 5} more problems)`
      : "";
  const problems = `${errors.join("\n")}${more}`;
  return {
    ok: false,
    code: "invalid_arguments",
    repairs,
    problems,
    message: `Tool "${tool.name}" did not run: its arguments do not match its input schema.\n${problems}\nFix the arguments and call it again.`,
  };
}
