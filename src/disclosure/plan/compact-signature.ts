import type { JsonSchema, ToolDefinition } from "../../catalog/index.js";
import { capText, safeName, sanitizeText } from "../../text/index.js";

/** Limits of a compact signature. */
export interface SignatureOptions {
  /** Parameters shown before `…+N more` (default 8; required ones come first). */
  maxParams?: number;
  /** Enum values shown before `|…` (default 4). */
  maxEnum?: number;
  /** Characters of the whole signature (default 240). */
  maxChars?: number;
}

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JsonSchema)
    : undefined;
}

function literal(value: unknown): string {
  const text =
    typeof value === "string"
      ? JSON.stringify(capText(sanitizeText(value), 24))
      : JSON.stringify(value);
  return text ?? "null";
}

/** A short type expression for a property schema: `string`, `number[]`, `"a"|"b"`, `object`. */
export function typeExpression(schema: JsonSchema | undefined, maxEnum = 4, depth = 0): string {
  if (!schema) return "any";
  if (Array.isArray(schema.enum)) {
    const shown = schema.enum.slice(0, maxEnum).map(literal);
    return schema.enum.length > maxEnum ? `${shown.join("|")}|…` : shown.join("|") || "any";
  }
  if ("const" in schema) return literal(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union) && depth < 2) {
    const parts = [
      ...new Set(union.map((part) => typeExpression(asSchema(part), maxEnum, depth + 1))),
    ];
    return parts.join("|") || "any";
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.map(String).join("|") || "any";
  if (type === "array" || (type === undefined && schema.items !== undefined)) {
    const item = typeExpression(asSchema(schema.items), maxEnum, depth + 1);
    return item.includes("|") ? `(${item})[]` : `${item}[]`;
  }
  if (typeof type === "string") return type;
  if (schema.properties !== undefined) return "object";
  return "any";
}

/**
 * A one-line call signature such as `create_issue(owner*: string, state?: "open"|"closed")`.
 *
 * `*` marks required parameters and `?` optional ones; required parameters come first, each
 * group in schema order. Long parameter lists end with `…+N more`.
 */
export function compactSignature(tool: ToolDefinition, options: SignatureOptions = {}): string {
  const maxParams = options.maxParams ?? 8;
  const maxEnum = options.maxEnum ?? 4;
  const maxChars = options.maxChars ?? 240;
  const properties = asSchema(tool.inputSchema.properties) ?? {};
  const required = new Set(
    Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.map(String) : [],
  );
  const names = Object.keys(properties);
  const ordered = [
    ...names.filter((n) => required.has(n)),
    ...names.filter((n) => !required.has(n)),
  ];
  const params = ordered
    .slice(0, maxParams)
    .map(
      (name) =>
        `${safeName(name)}${required.has(name) ? "*" : "?"}: ${typeExpression(asSchema(properties[name]), maxEnum)}`,
    );
  if (ordered.length > maxParams) params.push(`…+${ordered.length - maxParams} more`);
  const head = safeName(tool.name);
  const body = params.join(", ");
  const full = `${head}(${body})`;
  if (full.length <= maxChars) return full;
  return `${head}(${capText(body, Math.max(8, maxChars - head.length - 2))})`;
}
