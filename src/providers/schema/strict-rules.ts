/** The vocabulary of the strict-mode walk: each provider's rules, its outcome, and how it gives up. */
import type { JsonSchema } from "../../catalog/index.js";
import type { ConversionWarning } from "../warnings.js";

/** The outcome of a strict conversion: a strict schema, or the reason to send the tool non-strict. */
export type StrictConversion =
  | { strict: true; schema: JsonSchema; warnings: ConversionWarning[] }
  | { strict: false; reason: string; warnings: ConversionWarning[] };

/** What a provider's strict mode accepts. */
export interface StrictRules {
  /** Keywords kept unchanged (besides the structural ones the walk handles itself). */
  keep: ReadonlySet<string>;
  formats: ReadonlySet<string>;
  /** OpenAI: every property required, optional ones made nullable. */
  allRequired: boolean;
  allowRecursion: boolean;
  /** Anthropic keeps allOf (without `$ref` inside); OpenAI has none. */
  allowAllOf: boolean;
  /** Anthropic accepts `const`; OpenAI gets a one-value enum instead. */
  allowConst: boolean;
  /** Largest accepted `minItems` (Anthropic: 1). */
  maxMinItems?: number;
  /** Reject patterns with backreferences, lookaround, `\b` or large repetition counts. */
  simplePatternsOnly: boolean;
}

/** Converts one child node with the walk's rules; `pointer` is its place in the original schema. */
export type StrictWalk = (node: unknown, pointer: string) => JsonSchema;

/** Thrown inside the walk when the schema cannot be strict; caught by `convertStrict`. */
export class NotStrict extends Error {}
