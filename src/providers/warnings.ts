/** Warnings that schema conversions return instead of throwing when they lose information. */

/** What kind of change a conversion made. */
export type ConversionWarningCode =
  /** A keyword the provider rejects was removed (the `keyword` field names it). */
  | "keyword_dropped"
  /** A keyword was rewritten into a weaker one (e.g. exclusiveMinimum → minimum, oneOf → anyOf). */
  | "keyword_weakened"
  /** A root anyOf/oneOf/allOf was folded into the root object. */
  | "root_combinator_flattened"
  /** The root was not an object schema and was replaced. */
  | "root_replaced"
  /** A property name the provider rejects was renamed (arguments are mapped back). */
  | "property_renamed"
  /** Enum or const values were turned into strings (arguments are mapped back). */
  | "enum_stringified"
  /** A recursive or oversized `$ref` expansion was cut and replaced by a loose schema. */
  | "recursion_cut"
  /** A `$ref` could not be resolved and was replaced by a loose schema. */
  | "ref_unresolved"
  /** An open object was closed (`additionalProperties: false`) for strict mode. */
  | "additional_properties_closed"
  /** A multi-type `type` array or union was narrowed. */
  | "type_narrowed"
  /** The request holds more tools than the provider accepts (nothing was dropped). */
  | "tool_limit_exceeded"
  /** A tool asked to be strict was sent non-strict (the reason is in the message). */
  | "strict_unavailable"
  /** A description longer than the provider's limit was cut. */
  | "description_truncated"
  /** A requested option could not be honoured and a documented fallback was used. */
  | "option_ignored";

/** One information-losing change made while converting a tool's input schema. */
export interface ConversionWarning {
  /** Name of the tool whose schema was converted. */
  tool: string;
  /** JSON pointer into the ORIGINAL schema where the change happened (`""` is the root). */
  path: string;
  code: ConversionWarningCode;
  /** The JSON Schema keyword (or property name) concerned, when there is one. */
  keyword?: string;
  /** What was changed, in words. */
  message: string;
}

/** Collects warnings for one tool; conversions share it while they walk a schema. */
export class WarningSink {
  readonly warnings: ConversionWarning[] = [];

  constructor(readonly tool: string) {}

  /** Records a warning; `path` is a JSON pointer into the original schema. */
  add(code: ConversionWarningCode, path: string, message: string, keyword?: string): void {
    const warning: ConversionWarning = { tool: this.tool, path, code, message };
    if (keyword !== undefined) warning.keyword = keyword;
    this.warnings.push(warning);
  }
}

/** The warnings without repeats (same code, path, keyword and message), first occurrence kept. */
export function dedupeWarnings(warnings: ConversionWarning[]): ConversionWarning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = JSON.stringify([warning.code, warning.path, warning.keyword, warning.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
