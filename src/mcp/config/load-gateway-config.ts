/** Reads a gateway config file, its catalog files, and reports every problem at once. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { extractToolEntries, locateJsonError } from "../../catalog/index.js";
import { fileKind, notRegularFileMessage } from "../../catalog/node.js";
import { ToolsiftError } from "../../errors.js";
import { type GatewayConfig, parseGatewayConfig } from "./gateway-config.js";

/** Thrown when a gateway config has problems; `problems` lists each with its path. */
export class InvalidConfigError extends ToolsiftError {
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[]) {
    super(
      "invalid_option",
      `Config ${file} has ${problems.length} problem(s):\n${problems.map((problem) => `  ${problem}`).join("\n")}`,
    );
    this.name = "ToolsiftInvalidConfigError";
    this.problems = problems;
  }
}

/** Parses JSON, naming the line and column of a syntax error. */
function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const where = locateJsonError(text);
    const at = where
      ? ` at line ${where.line}, column ${where.column}: expected ${where.expected}`
      : "";
    throw new InvalidConfigError(file, [`(file): not valid JSON${at}. Fix the syntax there.`]);
  }
}

/**
 * Loads a config file: `${VAR}` expanded from `env` (default `process.env`), `cwd` and `catalog`
 * paths resolved against the file's folder, each `catalog` read into the server's known `tools`.
 * Throws InvalidConfigError listing every problem.
 */
export async function loadGatewayConfig(
  file: string,
  options: { env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new InvalidConfigError(file, [
      `(file): cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path.`,
    ]);
  }
  const dir = path.dirname(path.resolve(file));
  // VS Code keeps mcp.json in <workspace>/.vscode/
  const workspaceFolder = path.basename(dir) === ".vscode" ? path.dirname(dir) : dir;
  const { config, problems } = parseGatewayConfig(parseJson(file, text), {
    env: options.env ?? process.env,
    workspaceFolder,
  });
  if (config.approvals !== undefined) config.approvals = path.resolve(dir, config.approvals);
  if (config.learning && config.learning.file !== undefined)
    config.learning.file = path.resolve(dir, config.learning.file);
  if (config.embedder?.kind === "word-vectors")
    config.embedder.file = path.resolve(dir, config.embedder.file);
  for (const [name, server] of Object.entries(config.servers)) {
    if ("command" in server && server.cwd !== undefined) server.cwd = path.resolve(dir, server.cwd);
    const catalog = config.catalogs[name];
    if (catalog === undefined) continue;
    const catalogPath = path.resolve(dir, catalog.file);
    const kind = await fileKind(catalogPath);
    if (kind === "special" || kind === "directory") {
      problems.push(
        `${catalog.at}: ${notRegularFileMessage(catalogPath, `write the catalog to a file with "toolsift dump --config ${file}".`)}`,
      );
      continue;
    }
    try {
      const extracted = extractToolEntries(JSON.parse(await readFile(catalogPath, "utf8")));
      if ("problem" in extracted) {
        problems.push(`${catalog.at}: ${catalogPath}: ${extracted.problem}.`);
        continue;
      }
      const unnamed = extracted.entries.findIndex(
        (entry) => typeof (entry as { name?: unknown } | null)?.name !== "string",
      );
      if (unnamed !== -1)
        problems.push(`${catalog.at}: ${catalogPath}: tool #${unnamed} has no "name".`);
      else server.tools = extracted.entries;
    } catch (error) {
      problems.push(
        `${catalog.at}: cannot read ${catalogPath} (${(error as Error).message}); write it with "toolsift dump --config ${file}".`,
      );
    }
  }
  if (problems.length > 0) throw new InvalidConfigError(file, problems);
  return config;
}
