/** Loading catalogs from JSON files and directories (Node only; exported from `node.ts`). */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { InvalidToolError, type ToolIssue, ToolsiftError } from "../errors.js";
import { compareNames } from "./fingerprint-tools.js";
import {
  extractToolEntries,
  qualifyDuplicateNames,
  withDefaultServer,
} from "./from-mcp-tools-list.js";
import { locateJsonError } from "./locate-json-error.js";
import type { ToolDefinition } from "./types.js";
import { type NameRule, type SourcedEntry, validateEntries } from "./validate-tools.js";

/** Options of `loadCatalogFile` and `loadCatalogPaths`. */
export interface LoadCatalogOptions {
  /** `throw` (default): any bad tool throws InvalidToolError listing all of them.
   * `skip`: bad tools are left out and returned as `warnings`. */
  onInvalid?: "throw" | "skip";
  /** Server for tools without one; default: the file's base name without `.json`. */
  server?: string;
  /** Name rule; default `strict`. Use `lenient` for imported data with names like `PDF&URLTool`. */
  nameRule?: NameRule;
  /** `error` (default): a name used by two servers is `duplicate_tool`.
   * `qualify`: such tools are renamed `server/name` (all of them) and listed in `renamed`. */
  duplicates?: "error" | "qualify";
}

/** The tools loaded, the tools left out (skip mode) and the tools renamed (`qualify`). */
export interface LoadedCatalog {
  tools: ToolDefinition[];
  /** The tools skipped, with why. */
  warnings: ToolIssue[];
  /** Tools kept whose input schema cannot be checked (`schema_unchecked`): their calls are
   * refused unless `uncheckedSchemas: "allow"`. */
  schemaWarnings: ToolIssue[];
  renamed: { from: string; to: string; server: string }[];
  /** Every file read, in load order. */
  files: string[];
}

/**
 * Loads one catalog file (a JSON array of tools or an MCP tools/list result); a directory path is
 * loaded like `loadCatalogPaths([path])`.
 *
 * @example
 * const { tools, warnings } = await loadCatalogFile("tools.json", { onInvalid: "skip" });
 */
export function loadCatalogFile(
  file: string,
  options: LoadCatalogOptions = {},
): Promise<LoadedCatalog> {
  return loadCatalogPaths([file], options);
}

/**
 * Loads several files and directories into one validated tool list (names unique across all).
 * A directory contributes its `*.json` files, sorted by name, not recursing into subfolders.
 */
export async function loadCatalogPaths(
  paths: readonly string[],
  options: LoadCatalogOptions = {},
): Promise<LoadedCatalog> {
  const files: string[] = [];
  for (const item of paths) files.push(...(await expandPath(item)));
  let entries: SourcedEntry[] = [];
  for (const file of files) {
    const document = await readJsonFile(file);
    const extracted = extractToolEntries(document);
    if ("problem" in extracted) {
      throw new ToolsiftError(
        "invalid_catalog_file",
        `Catalog file ${file} has the wrong shape: ${extracted.problem}.`,
      );
    }
    const server = options.server ?? path.basename(file).replace(/\.json$/i, "");
    for (const value of withDefaultServer(extracted.entries, server)) {
      entries.push({ value, source: file });
    }
  }
  let renamed: LoadedCatalog["renamed"] = [];
  if (options.duplicates === "qualify") {
    const qualified = qualifyDuplicateNames(entries.map((entry) => entry.value));
    entries = entries.map((entry, index) => ({ ...entry, value: qualified.entries[index] }));
    renamed = qualified.renamed;
  }
  const { valid, issues, warnings } = validateEntries(
    entries,
    options.nameRule === undefined ? {} : { nameRule: options.nameRule },
  );
  if (issues.length > 0 && options.onInvalid !== "skip") throw new InvalidToolError(issues);
  return { tools: valid, warnings: issues, schemaWarnings: warnings, renamed, files };
}

async function expandPath(item: string): Promise<string[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(item);
  } catch (error) {
    throw fileError(item, error);
  }
  if (!info.isDirectory()) return [item];
  const names = (await readdir(item, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith(".json"))
    .map((entry) => entry.name)
    .sort(compareNames);
  if (names.length === 0) {
    throw new ToolsiftError(
      "invalid_catalog_file",
      `Catalog directory ${item} has no *.json files; put catalog files in it or pass a file path (subfolders are not searched).`,
    );
  }
  return names.map((name) => path.join(item, name));
}

async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw fileError(file, error);
  }
  // editors on Windows like to prepend a byte-order mark; JSON.parse rejects it
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (error) {
    const where = locateJsonError(text);
    const at = where
      ? ` at line ${where.line}, column ${where.column} (position ${where.offset}): expected ${where.expected}`
      : `: ${(error as Error).message}`;
    throw new ToolsiftError(
      "invalid_catalog_file",
      `Catalog file ${file} is not valid JSON${at}. Fix the syntax there (trailing commas, comments and single quotes are not allowed in JSON).`,
      { cause: error },
    );
  }
}

function fileError(file: string, error: unknown): ToolsiftError {
  const code = (error as { code?: string }).code;
  const message =
    code === "ENOENT"
      ? `Catalog file ${file} does not exist (resolved to ${path.resolve(file)}); check the path, or pass a directory of *.json catalog files.`
      : `Cannot read catalog file ${file} (${code ?? (error as Error).message}); check that it is a readable file or directory.`;
  return new ToolsiftError("invalid_catalog_file", message, { cause: error });
}
