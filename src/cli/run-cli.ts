import { readFileSync } from "node:fs";
import { isToolsiftError } from "../errors.js";
import { suggestNames } from "../internal/index.js";
import { approveCommand, approveUsage } from "./commands/approve.js";
import { authCommand, authUsage } from "./commands/auth.js";
import { dumpCommand, dumpUsage } from "./commands/dump.js";
import { evalCommand, evalUsage } from "./commands/eval.js";
import { indexCommand, indexUsage } from "./commands/index-command.js";
import { inspectCommand, inspectUsage } from "./commands/inspect.js";
import { learningCommand, learningUsage } from "./commands/learning.js";
import { prepareCommand, prepareUsage } from "./commands/prepare.js";
import { rankCommand, rankUsage } from "./commands/rank.js";
import { reportCommand, reportUsage } from "./commands/report.js";
import { searchCommand, searchUsage } from "./commands/search.js";
import { serveCommand, serveUsage } from "./commands/serve.js";
import type { CliIO } from "./io.js";
import { safeText } from "./terminal.js";
import { UsageError } from "./usage-error.js";

/** One CLI command. To add one: write `commands/NAME.ts` exporting its runner and usage, and
 * list it below; help, did-you-mean and error handling come with the table. */
export interface Command {
  run(argv: readonly string[], io: CliIO): Promise<number>;
  usage: string;
  summary: string;
}

export const commands: Record<string, Command> = {
  search: { run: searchCommand, usage: searchUsage, summary: "search a catalog" },
  rank: {
    run: rankCommand,
    usage: rankUsage,
    summary: "top-k names for every query of a JSONL file",
  },
  index: {
    run: indexCommand,
    usage: indexUsage,
    summary: "write a catalog's search index to a file, to load in another process",
  },
  eval: {
    run: evalCommand,
    usage: evalUsage,
    summary: "recall@k, MRR and nDCG@10 on labelled queries (--misses lists the misses)",
  },
  report: {
    run: reportCommand,
    usage: reportUsage,
    summary: "token cost per provider format: full list vs toolsift's first turn",
  },
  prepare: {
    run: prepareCommand,
    usage: prepareUsage,
    summary: "the request fragment toolsift would send to a provider, as JSON",
  },
  dump: {
    run: dumpCommand,
    usage: dumpUsage,
    summary: "write each MCP server's tools/list (from a gateway config) as catalog files",
  },
  inspect: {
    run: inspectCommand,
    usage: inspectUsage,
    summary: "a local web page: catalog, search playground, token cost per provider, sessions",
  },
  approve: {
    run: approveCommand,
    usage: approveUsage,
    summary: "approve MCP tools whose definitions changed (with pinTools in the gateway config)",
  },
  auth: {
    run: authCommand,
    usage: authUsage,
    summary: "log in to MCP servers that ask for OAuth (login, status, logout)",
  },
  learning: {
    run: learningCommand,
    usage: learningUsage,
    summary: "show or erase what a gateway learned from use (words per tool)",
  },
  serve: {
    run: serveCommand,
    usage: serveUsage,
    summary: "run the MCP gateway (search, reveal, policies, budgets) in front of MCP servers",
  },
};

/** Bad input (a catalog file, a query, an option) is the caller's to fix: exit 2. */
const INPUT_CODES = new Set([
  "invalid_tool",
  "invalid_catalog_file",
  "invalid_query",
  "invalid_regex",
  "invalid_option",
  "duplicate_tool",
]);

/** The package version, read from package.json beside src/ (and beside dist/ when installed). */
export function version(): string {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

function mainUsage(): string {
  const rows = Object.entries(commands).map(
    ([name, command]) => `  ${name.padEnd(10)}${command.summary}`,
  );
  return `Usage: toolsift COMMAND [options]

Commands:
${rows.join("\n")}
  help      help COMMAND prints a command's options

Options: --help, --version.
Run "toolsift help COMMAND" or "toolsift COMMAND --help" for a command's options.
Exit codes: 0 success, 1 runtime failure or (search) nothing matched, 2 bad usage or input.
`;
}

function unknownCommand(name: string, io: CliIO): number {
  const [closest] = suggestNames(name, Object.keys(commands), { max: 1 });
  const hint = closest ? ` Did you mean "${closest}"?` : "";
  io.stderr(`Unknown command "${safeText(name, { oneLine: true })}".${hint}\n\n${mainUsage()}`);
  return 2;
}

/** Runs the CLI and returns the exit code: 0 success, 1 runtime failure (or, for `search`,
 * nothing matched), 2 bad usage or input. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // no command is a usage mistake: usage on stderr, exit 2, as for an unknown command
    io.stderr(mainUsage());
    return 2;
  }
  if (name === "--help" || name === "-h") {
    io.stdout(mainUsage());
    return 0;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    io.stdout(`${version()}\n`);
    return 0;
  }
  if (name === "help") {
    const topic = rest[0];
    if (topic === undefined) {
      io.stdout(mainUsage());
      return 0;
    }
    const command = Object.hasOwn(commands, topic) ? commands[topic] : undefined;
    if (!command) return unknownCommand(topic, io);
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) return unknownCommand(name, io);
  // flags end at "--": a query may itself be "-h"
  const flags = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (flags.includes("--help") || flags.includes("-h")) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`toolsift ${name}: ${safeText(error.message)}\n\n${command.usage}\n`);
      return 2;
    }
    if (isToolsiftError(error)) {
      io.stderr(`toolsift ${name}: ${safeText(error.message)}\n`);
      return INPUT_CODES.has(error.code) ? 2 : 1;
    }
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`toolsift ${name}: ${safeText(text)}\n`);
    return 1;
  }
}
