import type { JsonSchema } from "../../catalog/index.js";

/** Arguments read into an object, or the reason they could not be. */
export type ReadArguments =
  | { ok: true; arguments: { [key: string]: unknown }; repairs: string[] }
  | { ok: false; message: string };

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads raw call arguments into an object, repairing what models commonly send instead:
 * nothing or `""` (no arguments), a JSON string of the object. Other shapes are refused.
 */
export function readArguments(raw: unknown): ReadArguments {
  if (raw === undefined || raw === null) return { ok: true, arguments: {}, repairs: [] };
  if (isObject(raw)) return { ok: true, arguments: raw, repairs: [] };
  if (typeof raw === "string") {
    if (raw.trim() === "") {
      return { ok: true, arguments: {}, repairs: ["empty string read as no arguments"] };
    }
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed))
        return { ok: true, arguments: parsed, repairs: ["arguments parsed from a JSON string"] };
    } catch {
      // fall through to the refusal below
    }
    return {
      ok: false,
      message: "arguments must be a JSON object; got a string that is not a JSON object",
    };
  }
  return {
    ok: false,
    message: `arguments must be a JSON object; got ${Array.isArray(raw) ? "an array" : typeof raw}`,
  };
}

/**
 * Unwraps `{arguments: {...}}` sent as the arguments themselves, when the schema has no
 * `arguments` property of its own.
 */
export function unnestArguments(
  args: { [key: string]: unknown },
  schema: JsonSchema,
): { arguments: { [key: string]: unknown }; repairs: string[] } {
  const keys = Object.keys(args);
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (keys.length !== 1 || keys[0] !== "arguments" || "arguments" in properties) {
    return { arguments: args, repairs: [] };
  }
  const inner = readArguments(args.arguments);
  if (!inner.ok) return { arguments: args, repairs: [] };
  return {
    arguments: inner.arguments,
    repairs: ["double-nested {arguments: {...}} unwrapped", ...inner.repairs],
  };
}

/** The target of a bridge call, or why it has none. */
export type BridgeTarget =
  | { ok: true; name: string; arguments: unknown; repairs: string[] }
  | { ok: false; message: string };

/**
 * Reads `{name, arguments}` from a bridge call. Also accepts `tool`/`tool_name` for `name`,
 * and arguments flattened beside the name (`{name, owner, repo}`), which small models send.
 */
export function readBridgeTarget(args: { [key: string]: unknown }): BridgeTarget {
  const repairs: string[] = [];
  let key = "name";
  if (typeof args.name !== "string") {
    const alias = ["tool_name", "tool", "toolName"].find(
      (candidate) => typeof args[candidate] === "string",
    );
    if (!alias)
      return { ok: false, message: 'the call needs "name": the exact name of the tool to run' };
    key = alias;
    repairs.push(`tool name read from "${alias}"`);
  }
  const name = String(args[key]).trim();
  if ("arguments" in args) return { ok: true, name, arguments: args.arguments, repairs };
  const rest = Object.fromEntries(Object.entries(args).filter(([field]) => field !== key));
  if (Object.keys(rest).length > 0) repairs.push("arguments read from fields beside the name");
  return { ok: true, name, arguments: rest, repairs };
}
