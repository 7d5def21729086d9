import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import {
  type Catalog,
  compareNames,
  createCatalog,
  extractToolEntries,
  locateJsonError,
  qualifyDuplicateNames,
  type ToolDefinition,
  validateTools,
} from "../catalog/index.js";
import { fileKind, loadCatalogFile, notRegularFileMessage } from "../catalog/node.js";
import { InvalidToolError, isToolsiftError, type ToolIssue, ToolsiftError } from "../errors.js";
import { ToolSearchIndex } from "../search/index.js";
import { oneOf, requireCatalogs } from "./args.js";
import type { CliIO } from "./io.js";
import { createProgress, type Progress, safeText } from "./terminal.js";
import { tuneForCatalog } from "./tune-v8.js";
import { UsageError } from "./usage-error.js";

/** The catalog flags of a command (see `catalogFlags`). */
export interface LoadFlags {
  catalog?: string[] | undefined;
  strict?: boolean | undefined;
  duplicates?: string | undefined;
}

/** The server name given to tools read from stdin that do not name one. */
const STDIN_SERVER = "stdin";

/** The name rule of every catalog the CLI builds: catalogs from the wild have names like
 * `PDF&URLTool`; providers map them later, so `search` and `prepare` accept the same files. */
const NAME_RULE = "lenient" as const;

/**
 * The files behind the --catalog arguments: a directory gives its *.json files (sorted), `-` is
 * stdin, and anything that is not a regular file (a FIFO, a socket, a device) is refused, since
 * reading it could block forever.
 */
export async function expandSources(paths: readonly string[]): Promise<string[]> {
  const sources: string[] = [];
  for (const item of paths) {
    if (item === "-") {
      sources.push(item);
      continue;
    }
    const kind = await fileKind(item);
    if (kind === "missing") {
      throw new UsageError(
        `--catalog ${item} does not exist (resolved to ${path.resolve(item)}); pass a JSON file, a directory of them, or - for stdin.`,
      );
    }
    if (kind === "directory") {
      const names = (await readdir(item, { withFileTypes: true }))
        .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith(".json"))
        .map((entry) => entry.name)
        .sort(compareNames);
      if (names.length === 0) {
        throw new UsageError(`--catalog ${item} is a directory without *.json files.`);
      }
      sources.push(...names.map((name) => path.join(item, name)));
    } else if (kind === "file") {
      sources.push(item);
    } else {
      throw new UsageError(
        `--catalog ${notRegularFileMessage(item, "save the catalog to a file, or pipe it with --catalog -.")}`,
      );
    }
  }
  if (sources.filter((source) => source === "-").length > 1) {
    throw new UsageError("--catalog - (stdin) can be given once.");
  }
  return sources;
}

/** Reads the catalog document on stdin into tools (skipping bad ones unless `strict`). */
async function loadStdin(io: CliIO, strict: boolean) {
  if (!io.readStdin) throw new UsageError("--catalog - needs a stdin to read.");
  let text = await io.readStdin();
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const where = locateJsonError(text);
    const at = where
      ? ` at line ${where.line}, column ${where.column}: expected ${where.expected}`
      : "";
    throw new ToolsiftError(
      "invalid_catalog_file",
      `The catalog on stdin is not valid JSON${at}.`,
      { cause: error },
    );
  }
  const extracted = extractToolEntries(document);
  if ("problem" in extracted) {
    throw new ToolsiftError(
      "invalid_catalog_file",
      `The catalog on stdin has the wrong shape: ${extracted.problem}.`,
    );
  }
  const entries = extracted.entries.map((entry) =>
    typeof entry === "object" && entry !== null && !("server" in entry)
      ? { ...entry, server: STDIN_SERVER }
      : entry,
  );
  const { valid, issues, warnings } = validateTools(entries, { nameRule: NAME_RULE });
  if (strict && issues.length > 0) throw new InvalidToolError(issues);
  return {
    tools: valid,
    warnings: issues.map((issue) => ({ ...issue, source: "stdin" })),
    schemaWarnings: warnings,
  };
}

/** Tool names that several servers serve, as "name (a, b)" parts of a message. */
function collisions(tools: readonly ToolDefinition[]): string[] {
  const servers = new Map<string, Set<string>>();
  for (const tool of tools) {
    const set = servers.get(tool.name) ?? new Set<string>();
    set.add(tool.server ?? "");
    servers.set(tool.name, set);
  }
  return [...servers]
    .filter(([, set]) => set.size > 1)
    .map(([name, set]) => `${name} (${[...set].join(", ")})`);
}

/**
 * Loads every --catalog source. A file that cannot be read or parsed is skipped with a warning
 * (the rest still loads) unless --strict; so is an invalid tool. A name served by several servers
 * becomes server/name (`--duplicates qualify`, the default) or fails (`--duplicates error`).
 */
export async function loadTools(
  flags: LoadFlags,
  io: CliIO,
  progress: Progress = createProgress(io),
): Promise<ToolDefinition[]> {
  const paths = requireCatalogs(flags.catalog);
  const duplicates = oneOf(flags.duplicates, "duplicates", ["qualify", "error"]) ?? "qualify";
  const strict = flags.strict === true;
  const sources = await expandSources(paths);
  const loaded: { tool: ToolDefinition; source: string }[] = [];
  const warnings: ToolIssue[] = [];
  const schemaWarnings: ToolIssue[] = [];
  let skippedFiles = 0;
  for (const [position, source] of sources.entries()) {
    const name = source === "-" ? "stdin" : path.basename(source);
    progress.step(`reading ${name} (catalog ${position + 1} of ${sources.length})`);
    try {
      const result =
        source === "-"
          ? await loadStdin(io, strict)
          : await loadCatalogFile(source, {
              onInvalid: strict ? "throw" : "skip",
              nameRule: NAME_RULE,
              duplicates: "qualify",
              // files named on the command line are the user's own: keep their server and
              // control fields (benchmark catalogs hold several servers in one file)
              trust: "host",
            });
      for (const tool of result.tools) loaded.push({ tool, source });
      warnings.push(...result.warnings);
      schemaWarnings.push(...result.schemaWarnings);
    } catch (error) {
      // one unreadable file among many is skipped; alone, or with --strict, it is the error
      const fileProblem = isToolsiftError(error) && error.code === "invalid_catalog_file";
      if (strict || !fileProblem || sources.length === 1) throw error;
      skippedFiles++;
      io.stderr(`warning: skipped file ${safeText((error as Error).message, { oneLine: true })}\n`);
    }
  }
  if (skippedFiles === sources.length) {
    throw new ToolsiftError(
      "invalid_catalog_file",
      "No catalog file could be loaded (see the warnings above).",
    );
  }
  // only --duplicates error reports clashes; qualifying finds them on its own
  const clashes = duplicates === "error" ? collisions(loaded.map((entry) => entry.tool)) : [];
  if (clashes.length > 0) {
    throw new ToolsiftError(
      "duplicate_tool",
      `${clashes.length} tool name(s) are served by several servers: ${clashes.slice(0, 5).join("; ")}${clashes.length > 5 ? " …" : ""}. Pass --duplicates qualify to load them as server/name.`,
    );
  }
  const qualified = qualifyDuplicateNames(loaded.map((entry) => entry.tool)).entries;
  // the same server and name twice (a file passed twice, or two files of one server): keep the first
  const tools: ToolDefinition[] = [];
  const firstSource = new Map<string, string>();
  qualified.forEach((tool, index) => {
    const source = loaded[index]?.source ?? "";
    const earlier = firstSource.get(tool.name);
    if (earlier === undefined) {
      firstSource.set(tool.name, source);
      tools.push(tool);
    } else {
      warnings.push({
        tool: tool.name,
        code: "duplicate_tool",
        message: `already loaded from ${earlier}`,
        source,
      });
    }
  });
  for (const warning of warnings.slice(0, 20)) {
    const where = warning.source ? ` (${warning.source})` : "";
    io.stderr(
      `warning: skipped ${safeText(`${warning.tool}${where}: ${warning.message}`, { oneLine: true })}\n`,
    );
  }
  if (warnings.length > 20) io.stderr(`warning: ${warnings.length - 20} more tools skipped\n`);
  for (const warning of schemaWarnings.slice(0, 20)) io.stderr(`warning: ${warning.message}\n`);
  return tools;
}

/** A catalog over loaded tools, with the CLI's lenient name rule (same as the loader's). */
export function catalogOf(tools: readonly ToolDefinition[]): Catalog {
  return createCatalog(tools, { nameRule: NAME_RULE });
}

/** Builds a search index over the tools (names are unique here, so one bulk add does; a progress
 * line when that comes after a slow load). */
export function indexTools(tools: readonly ToolDefinition[], progress?: Progress): ToolSearchIndex {
  progress?.step(`indexing ${tools.length} tools`);
  tuneForCatalog(tools.length);
  const index = new ToolSearchIndex();
  // the bulk path writes each posting list once, at its final size (`addAll`)
  index.addAll(tools);
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
