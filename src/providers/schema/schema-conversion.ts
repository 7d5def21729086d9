/** What every provider's schema conversion takes and returns (shared, so no provider imports another). */
import type { JsonSchema } from "../../catalog/index.js";
import type { ConversionWarning } from "../warnings.js";

/** A converted schema and what was lost on the way. */
export interface SchemaConversion {
  schema: JsonSchema;
  warnings: ConversionWarning[];
}

/** Options shared by the schema conversions. */
export interface ConversionOptions {
  /** Tool name put into warnings; default `(unnamed)`. */
  tool?: string;
}
