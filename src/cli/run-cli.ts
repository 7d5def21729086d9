import { readFileSync } from "node:fs";
import { isToolsiftError } from "../errors.js";
import { suggestNames } from "../internal/index.js";
import type { CliIO } from "./io.js";
import { safeText } from "./terminal.js";
import { UsageError } from "./usage-error.js";

/** One CLI command: what its module exports. */
interface CommandModule {
  run(argv: readonly string[], io: CliIO): Promise<number>;
  usage: string;
}

/** One CLI command. To add one: write `commands/NAME.ts` exporting its runner and usage, and
 * list it below; help, did-you-mean and error handling come with the table. Each module is
 * imported only when its command runs, so `search` never loads the gateway, the inspector or the
 * disclosure layer (`node -e 0` is the yardstick of a cold start: issue 25). */
export interface Command {
  load(): Promise<CommandModule>;
  summary: string;
}

export const commands: Record<string, Command> = {
  search: {
    load: async () => {
      const { searchCommand, searchUsage } = await import("./commands/search.js");
      return { run: searchCommand, usage: searchUsage };
    },
    summary: "search a catalog",
  },
  rank: {
    load: async () => {
      const { rankCommand, rankUsage } = await import("./commands/rank.js");
      return { run: rankCommand, usage: rankUsage };
    },
    summary: "top-k names for every query of a JSONL file",
  },
  index: {
    load: async () => {
      const { indexCommand, indexUsage } = await import("./commands/index-command.js");
      return { run: indexCommand, usage: indexUsage };
    },
    summary: "write a catalog's search index to a file, to load in another process",
  },
  eval: {
    load: async () => {
      const { evalCommand, evalUsage } = await import("./commands/eval.js");
      return { run: evalCommand, usage: evalUsage };
    },
    summary: "recall@k, MRR and nDCG@10 on labelled queries (--misses lists the misses)",
  },
  report: {
    load: async () => {
      const { reportCommand, reportUsage } = await import("./commands/report.js");
      return { run: reportCommand, usage: reportUsage };
    },
    summary: "token cost per provider format: full list vs toolsift's first turn",
  },
  prepare: {
    load: async () => {
      const { prepareCommand, prepareUsage } = await import("./commands/prepare.js");
      return { run: prepareCommand, usage: prepareUsage };
    },
    summary: "the request fragment toolsift would send to a provider, as JSON",
  },
  dump: {
    load: async () => {
      const { dumpCommand, dumpUsage } = await import("./commands/dump.js");
      return { run: dumpCommand, usage: dumpUsage };
    },
    summary: "write each MCP server's tools/list (from a gateway config) as catalog files",
  },
  inspect: {
    load: async () => {
      const { inspectCommand, inspectUsage } = await import("./commands/inspect.js");
      return { run: inspectCommand, usage: inspectUsage };
    },
    summary: "a local web page: catalog, search playground, token cost per provider, sessions",
  },
  approve: {
    load: async () => {
      const { approveCommand, approveUsage } = await import("./commands/approve.js");
      return { run: approveCommand, usage: approveUsage };
    },
    summary: "approve MCP tools whose definitions changed (with pinTools in the gateway config)",
  },
  auth: {
    load: async () => {
      const { authCommand, authUsage } = await import("./commands/auth.js");
      return { run: authCommand, usage: authUsage };
    },
    summary: "log in to MCP servers that ask for OAuth (login, status, logout)",
  },
  learning: {
    load: async () => {
      const { learningCommand, learningUsage } = await import("./commands/learning.js");
      return { run: learningCommand, usage: learningUsage };
    },
    summary: "show or erase what a gateway learned from use (words per tool)",
  },
  serve: {
    load: async () => {
      const { serveCommand, serveUsage } = await import("./commands/serve.js");
      return { run: serveCommand, usage: serveUsage };
    },
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
    io.stdout(`${(await command.load()).usage}\n`);
    return 0;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) return unknownCommand(name, io);
  const command = await entry.load();
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
