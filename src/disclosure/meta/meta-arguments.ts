/**
 * Reading the meta tools' arguments, once per call: the call pipeline parses them before the
 * query-embedding step and the handlers, so both see the same queries (an uncapped copy once
 * missed its vector and the search silently ran lexical).
 */

import { capText } from "../../text/index.js";
import { MAX_QUERIES } from "./meta-tools.js";

/** Characters of one search query that are run; a query is a few keywords, not a document. */
export const MAX_QUERY_CHARS = 500;

/** The search meta tool's arguments as run: `queries` holds at most `MAX_QUERIES`, each capped. */
export interface SearchArguments {
  queries: string[];
  limit: number;
  includeWeak: boolean;
  repairs: string[];
}

/** The describe meta tool's arguments: the names asked for, as given. */
export interface DescribeArguments {
  names: string[];
}

function stringList(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string"))
    return value as string[];
  return undefined;
}

/** Reads `queries` (array or one string) or `query`, and `limit` within the turn's bounds. */
export function readSearchArguments(
  args: { [key: string]: unknown },
  limits: { defaultLimit: number; maxLimit: number },
): SearchArguments {
  const repairs: string[] = [];
  let raw = stringList(args.queries);
  if (raw && typeof args.queries === "string") repairs.push("queries given as one string");
  if (!raw) {
    raw = stringList(args.query);
    if (raw) repairs.push('"query" read as queries');
  }
  const queries = (raw ?? [])
    .map((query) => capText(query.trim(), MAX_QUERY_CHARS))
    .filter((query) => query !== "");
  if (queries.length > MAX_QUERIES) repairs.push(`only the first ${MAX_QUERIES} queries were run`);
  const asked = typeof args.limit === "string" ? Number(args.limit) : args.limit;
  const limit =
    typeof asked === "number" && Number.isFinite(asked)
      ? Math.min(limits.maxLimit, Math.max(1, Math.floor(asked)))
      : limits.defaultLimit;
  return {
    queries: queries.slice(0, MAX_QUERIES),
    limit,
    includeWeak: args.include_weak === true,
    repairs,
  };
}

/** Reads `names` (array or one string) or `name`. */
export function readDescribeArguments(args: { [key: string]: unknown }): DescribeArguments {
  return { names: stringList(args.names) ?? stringList(args.name) ?? [] };
}
