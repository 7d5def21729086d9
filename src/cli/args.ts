import { parseArgs } from "node:util";
import { UsageError } from "./usage-error.js";

/** Declares one command's flags: name → kind; `multiple` flags may repeat. */
export type FlagSpec = Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
>;

export interface ParsedCommand<TFlags extends FlagSpec> {
  values: {
    [K in keyof TFlags]?: TFlags[K]["type"] extends "boolean"
      ? boolean
      : TFlags[K]["multiple"] extends true
        ? string[]
        : string;
  };
  positionals: string[];
}

/** Parses argv for one command; unknown flags and missing values become UsageErrors. */
export function parseCommand<TFlags extends FlagSpec>(
  argv: readonly string[],
  flags: TFlags,
): ParsedCommand<TFlags> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: flags,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedCommand<TFlags>["values"], positionals };
  } catch (error) {
    // node's messages are precise ("Unknown option '--lmit'"); keep them, drop the error code prefix
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/^TypeError \[[A-Z_]+\]: /, ""));
  }
}

/** Reads an integer flag, checking its range; absent → fallback. */
export function integerFlag(
  value: string | undefined,
  flag: string,
  range: { min: number; max: number },
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < range.min || parsed > range.max) {
    throw new UsageError(
      `--${flag} must be a whole number from ${range.min} to ${range.max}, got "${value}".`,
    );
  }
  return parsed;
}

/** Requires at least one --catalog path. */
export function requireCatalogs(paths: string[] | undefined): string[] {
  if (!paths || paths.length === 0) {
    throw new UsageError(
      "--catalog PATH is required: a JSON array of tools, an MCP tools/list result, or a directory of them (repeatable).",
    );
  }
  return paths;
}

/** Reads `--context-window` (tokens, 1,000–100,000,000); default 200,000. */
export function contextWindowFlag(value: string | undefined): number {
  return integerFlag(value, "context-window", { min: 1_000, max: 100_000_000 }, 200_000);
}
