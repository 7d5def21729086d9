/** Strict-mode value keywords: enum, const, format and pattern, and the type an enum implies. */
import type { JsonSchema } from "../../catalog/index.js";
import type { WarningSink } from "../warnings.js";
import { childPointer } from "./json-schema.js";
import { NotStrict, type StrictRules } from "./strict-rules.js";

/** Whether a pattern avoids backreferences, lookaround, `\b` and repetition counts above 100. */
function isSimplePattern(pattern: string): boolean {
  if (/\\[1-9]|\(\?[=!<]|\\b|\\B/.test(pattern)) return false;
  const counts = pattern.match(/\{(\d+)(?:,(\d*))?\}/g) ?? [];
  return counts.every((count) => (count.match(/\d+/g) ?? []).every((n) => Number(n) <= 100));
}

/** The type shared by all enum values (string, boolean or number), or undefined when they differ. */
export function inferType(values: unknown[]): string | undefined {
  const kinds = new Set(values.map((value) => (value === null ? "null" : typeof value)));
  if (kinds.size !== 1) return undefined;
  const kind = [...kinds][0];
  return kind === "string" || kind === "boolean" || kind === "number" ? kind : undefined;
}

/**
 * Copies `enum`, `const`, `format` and `pattern` into `out` as the rules allow: `const` becomes a
 * one-value enum where it is not accepted, unsupported formats and patterns are dropped with a
 * warning, and object or array values make the schema non-strict.
 */
export function copyValueKeywords(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
): void {
  const primitive = (value: unknown) => value === null || typeof value !== "object";
  if (Array.isArray(node.enum)) {
    if (!node.enum.every(primitive))
      throw new NotStrict(`${pointer || "the root"} has an enum of objects or arrays`);
    out.enum = node.enum;
  }
  if ("const" in node) {
    if (!primitive(node.const))
      throw new NotStrict(`${pointer || "the root"} has a const object or array`);
    if (rules.allowConst) out.const = node.const;
    else out.enum = [node.const];
  }
  if (typeof node.format === "string") {
    if (rules.formats.has(node.format)) out.format = node.format;
    else
      sink.add(
        "keyword_dropped",
        childPointer(pointer, "format"),
        `format "${node.format}" is not supported in strict mode`,
        "format",
      );
  }
  if (typeof node.pattern === "string") {
    if (!rules.simplePatternsOnly || isSimplePattern(node.pattern)) out.pattern = node.pattern;
    else
      sink.add(
        "keyword_dropped",
        childPointer(pointer, "pattern"),
        "pattern uses backreferences, lookaround, \\b or large counts",
        "pattern",
      );
  }
}
