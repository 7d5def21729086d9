import { readFile } from "node:fs/promises";
import type { ToolDefinition } from "../catalog/index.js";
import { loadCatalogPaths } from "../catalog/node.js";
import { ToolSearchIndex } from "../search/index.js";
import type { CliIO } from "./io.js";
import { UsageError } from "./usage-error.js";

/** Loads every --catalog path; invalid tools are skipped with a warning unless `strict`. */
export async function loadTools(
  paths: readonly string[],
  io: CliIO,
  options: { strict?: boolean } = {},
): Promise<ToolDefinition[]> {
  const { tools, warnings, schemaWarnings } = await loadCatalogPaths(paths, {
    onInvalid: options.strict ? "throw" : "skip",
    // the CLI reads catalogs as they come from the wild: odd names are mapped later by providers,
    // and a name served by two servers becomes server/name instead of failing the whole load
    nameRule: "lenient",
    duplicates: "qualify",
  });
  for (const warning of warnings.slice(0, 20)) {
    io.stderr(
      `warning: skipped ${warning.tool}${warning.source ? ` (${warning.source})` : ""}: ${warning.message}\n`,
    );
  }
  if (warnings.length > 20) io.stderr(`warning: ${warnings.length - 20} more tools skipped\n`);
  for (const warning of schemaWarnings.slice(0, 20)) io.stderr(`warning: ${warning.message}\n`);
  return tools;
}

/** Builds a search index over the tools. */
export function indexTools(tools: readonly ToolDefinition[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const tool of tools) index.add(tool);
  return index;
}

/** One line of a queries file. `relevant` is present in evaluation sets. */
export interface QueryLine {
  id: string;
  query: string;
  relevant?: string[];
}

/** Reads a JSONL queries file; a bad line is a usage error naming the line. A line without an id
 * gets its 1-based line number as id. */
export async function readQueries(path: string): Promise<QueryLine[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read queries file "${path}": ${(error as Error).message}`);
  }
  const queries: QueryLine[] = [];
  const lines = text.split("\n");
  for (let lineIndex = 0; lineIndex < lines.length; lineIndex++) {
    const line = lines[lineIndex]?.trim();
    if (!line) continue;
    const where = `${path}:${lineIndex + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new UsageError(
        `${where}: not valid JSON (${(error as Error).message}). Each line must be one JSON object {"id", "query"}.`,
      );
    }
    if (
      typeof parsed !== "object" ||
      parsed === null ||
      typeof (parsed as { query?: unknown }).query !== "string"
    ) {
      throw new UsageError(`${where}: each line must be a JSON object with a string "query".`);
    }
    const record = parsed as { id?: unknown; query: string; relevant?: unknown };
    const entry: QueryLine = {
      id: record.id === undefined ? String(lineIndex + 1) : String(record.id),
      query: record.query,
    };
    if (Array.isArray(record.relevant)) entry.relevant = record.relevant.map(String);
    queries.push(entry);
  }
  return queries;
}
