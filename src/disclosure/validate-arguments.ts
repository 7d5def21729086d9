import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { JsonSchema, ToolDefinition } from "../catalog/index.js";
import { coerceScalars } from "./coerce-scalars.js";

/** The result of checking arguments against a tool's input schema. */
export type ArgumentCheck =
  | { ok: true; arguments: { [key: string]: unknown }; repairs: string[]; checked: boolean }
  | { ok: false; message: string; problems: string; repairs: string[] };

type Dialect = "draft-07" | "2019-09" | "2020-12";

const AJV_OPTIONS = { strict: false, allErrors: true, verbose: true, logger: false } as const;
const instances = new Map<Dialect, Ajv>();
// null marks a schema Ajv could not compile: calls then go through unchecked
const compiled = new WeakMap<JsonSchema, ValidateFunction | null>();

function dialectOf(schema: JsonSchema): Dialect {
  const uri = typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("2020-12")) return "2020-12";
  if (uri.includes("2019-09")) return "2019-09";
  return "draft-07";
}

function ajvFor(dialect: Dialect): Ajv {
  let ajv = instances.get(dialect);
  if (!ajv) {
    // one shared instance per dialect: a new instance per compile is 30x slower
    ajv =
      dialect === "2020-12"
        ? new Ajv2020(AJV_OPTIONS)
        : dialect === "2019-09"
          ? new Ajv2019(AJV_OPTIONS)
          : new Ajv(AJV_OPTIONS);
    addFormats.default(ajv);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/** Compiles a schema once (cached per schema object); `null` when Ajv rejects it. */
export function compileSchema(schema: JsonSchema): ValidateFunction | null {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
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
  let validate: ValidateFunction | null;
  try {
    validate = ajvFor(dialect).compile(copy);
  } catch {
    validate = null;
  }
  compiled.set(schema, validate);
  return validate;
}

function clip(value: unknown, max = 300): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
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
): ArgumentCheck {
  const validate = compileSchema(tool.inputSchema);
  if (!validate) return { ok: true, arguments: args, repairs: [], checked: false };
  // a plain boolean: Ajv's type guard would narrow the arguments to never on failure
  const passes = (value: unknown): boolean => validate(value);
  if (passes(args)) return { ok: true, arguments: args, repairs: [], checked: true };
  let current: { [key: string]: unknown } = args;
  const repairs: string[] = [];
  for (let round = 0; round < 3; round += 1) {
    const fixed = coerceScalars(current, validate.errors ?? []);
    if (!fixed) break;
    current = fixed.value;
    repairs.push(...fixed.repairs);
    if (passes(current)) return { ok: true, arguments: current, repairs, checked: true };
  }
  const errors = (validate.errors ?? []).slice(0, 5).map(describeError);
  const more =
    (validate.errors?.length ?? 0) > 5
      ? `\n(and ${(validate.errors?.length ?? 0) - 5} more problems)`
      : "";
  const problems = `${errors.join("\n")}${more}`;
  return {
    ok: false,
    repairs,
    problems,
    message: `Tool "${tool.name}" did not run: its arguments do not match its input schema.\n${problems}\nFix the arguments and call it again.`,
  };
}
