import { isToolsiftError } from "../errors.js";
import { dumpCommand, dumpUsage } from "./commands/dump.js";
import { evalCommand, evalUsage } from "./commands/eval.js";
import { prepareCommand, prepareUsage } from "./commands/prepare.js";
import { rankCommand, rankUsage } from "./commands/rank.js";
import { reportCommand, reportUsage } from "./commands/report.js";
import { searchCommand, searchUsage } from "./commands/search.js";
import { serveCommand, serveUsage } from "./commands/serve.js";
import type { CliIO } from "./io.js";
import { UsageError } from "./usage-error.js";

interface Command {
  run(argv: readonly string[], io: CliIO): Promise<number>;
  usage: string;
  summary: string;
}

const commands: Record<string, Command> = {
  search: { run: searchCommand, usage: searchUsage, summary: "search a catalog" },
  rank: {
    run: rankCommand,
    usage: rankUsage,
    summary: "top-k names for every query of a JSONL file",
  },
  eval: {
    run: evalCommand,
    usage: evalUsage,
    summary: "recall@k, MRR and nDCG@10 on labelled queries",
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
  serve: {
    run: serveCommand,
    usage: serveUsage,
    summary: "run the MCP gateway (search, reveal, policies, budgets) in front of MCP servers",
  },
};

function mainUsage(): string {
  const rows = Object.entries(commands).map(
    ([name, command]) => `  ${name.padEnd(10)}${command.summary}`,
  );
  return `Usage: toolsift COMMAND [options]\n\nCommands:\n${rows.join("\n")}\n\nRun "toolsift COMMAND --help" for a command's options.\n`;
}

/** Runs the CLI and returns the exit code: 0 success, 1 runtime failure, 2 bad usage or input. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(mainUsage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    io.stderr(`Unknown command "${name}".\n${mainUsage()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`toolsift ${name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    if (isToolsiftError(error)) {
      // bad input (a catalog file, a query, an option) is the caller's to fix: exit 2
      const inputCodes = new Set([
        "invalid_tool",
        "invalid_catalog_file",
        "invalid_query",
        "invalid_regex",
        "invalid_option",
        "duplicate_tool",
      ]);
      io.stderr(`toolsift ${name}: ${error.message}\n`);
      return inputCodes.has(error.code) ? 2 : 1;
    }
    io.stderr(
      `toolsift ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}
