import { suggestNames } from "../internal/index.js";
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

/** " Did you mean --limit?" for a mistyped flag, or "" when nothing is close. */
function flagHint(name: string, flags: FlagSpec): string {
  const [closest] = suggestNames(name, Object.keys(flags), { max: 1 });
  return closest ? ` Did you mean --${closest}?` : "";
}

/**
 * Parses argv for one command. Flags are `--name value`, `--name=value` or a boolean `--name`;
 * `--` ends the flags. A string flag takes the next argument whatever it is (so `--catalog -`
 * means stdin). Every mistake is a UsageError in our words, with a did-you-mean for a typo.
 */
export function parseCommand<TFlags extends FlagSpec>(
  argv: readonly string[],
  flags: TFlags,
): ParsedCommand<TFlags> {
  const values: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  const shorts = new Map(
    Object.entries(flags).flatMap(([name, spec]) => (spec.short ? [[spec.short, name]] : [])),
  );
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? "";
    if (arg === "--") {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      name = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
      inline = equals < 0 ? undefined : arg.slice(equals + 1);
      if (!Object.hasOwn(flags, name)) {
        throw new UsageError(`Unknown flag --${name}.${flagHint(name, flags)}`);
      }
    } else if (arg.length > 1 && arg.startsWith("-")) {
      const long = shorts.get(arg.slice(1));
      if (long === undefined) {
        throw new UsageError(`Unknown flag ${arg}.${flagHint(arg.slice(1), flags)}`);
      }
      name = long;
    } else {
      positionals.push(arg);
      continue;
    }
    const spec = flags[name];
    if (spec?.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value (got "${inline}").`);
      values[name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[index + 1];
      // "--catalog --json" is a forgotten value, not a catalog named "--json"
      if (next === undefined || (next.startsWith("--") && next.length > 2)) {
        throw new UsageError(`--${name} needs a value: --${name} VALUE.`);
      }
      value = next;
      index++;
    }
    if (spec?.multiple) {
      const list = (values[name] as string[] | undefined) ?? [];
      list.push(value);
      values[name] = list;
    } else {
      values[name] = value;
    }
  }
  return { values: values as ParsedCommand<TFlags>["values"], positionals };
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

/** Reads a flag that takes one of a few words; absent → undefined. */
export function oneOf<T extends string>(
  value: string | undefined,
  flag: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    const [closest] = suggestNames(value, allowed, { max: 1 });
    const hint = closest ? ` Did you mean "${closest}"?` : "";
    throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}; got "${value}".${hint}`);
  }
  return value as T;
}

/** Requires at least one --catalog path. */
export function requireCatalogs(paths: string[] | undefined): string[] {
  if (!paths || paths.length === 0) {
    throw new UsageError(
      "--catalog PATH is required: a JSON array of tools, an MCP tools/list result, or a directory of them (repeatable; - reads stdin).",
    );
  }
  return paths;
}

/** Reads `--context-window` (tokens, 1,000–100,000,000); default 200,000. */
export function contextWindowFlag(value: string | undefined): number {
  return integerFlag(value, "context-window", { min: 1_000, max: 100_000_000 }, 200_000);
}

/** The flags every command that loads a catalog takes. */
export const catalogFlags = {
  catalog: { type: "string", multiple: true },
  strict: { type: "boolean" },
  duplicates: { type: "string" },
} as const;
