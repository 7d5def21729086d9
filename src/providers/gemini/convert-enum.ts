/** Gemini enums: string values only, marked `format: "enum"`; other values are sent as text. */
import type { JsonSchema, JsonValue } from "../../catalog/index.js";
import { childPointer } from "../schema/json-schema.js";
import { enumText } from "./arguments.js";
import type { GeminiWalkState } from "./walk-state.js";

/**
 * Writes `enum` and `format: "enum"` into `out` and returns the node's type. Non-string values
 * become their text, are recorded under `argPath` in the argument mapping so calls can be mapped
 * back, and are warned about; the type then follows the values (integer, number or string).
 */
export function convertEnum(
  values: JsonValue[],
  type: string | undefined,
  out: JsonSchema,
  pointer: string,
  argPath: string,
  state: GeminiWalkState,
): string | undefined {
  if (values.every((value) => typeof value === "string")) {
    out.enum = values;
    out.format = "enum";
    return type ?? "string";
  }
  const numeric = values.every((value) => typeof value === "number");
  const integral = numeric && values.every((value) => Number.isInteger(value));
  const newType =
    numeric && (type === "number" || type === "integer")
      ? type
      : integral
        ? "integer"
        : numeric
          ? "number"
          : "string";
  out.enum = values.map(enumText);
  out.format = "enum";
  const existing = state.mapping.values[argPath] ?? [];
  state.mapping.values[argPath] = [
    ...existing,
    ...values.filter((value) => !existing.some((old) => enumText(old) === enumText(value))),
  ];
  state.sink.add(
    "enum_stringified",
    childPointer(pointer, "enum"),
    `enum values ${JSON.stringify(values).slice(0, 80)} sent as strings`,
    "enum",
  );
  return newType;
}
