import { writeFileSync } from "node:fs";
import path from "node:path";
import { createToolSift } from "../../create-toolsift.js";
import { catalogFlags, parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { loadTools } from "../load.js";
import { createProgress } from "../terminal.js";
import { UsageError } from "../usage-error.js";

export const indexUsage = `Usage: toolsift index --catalog PATH [--catalog PATH ...] --out FILE [--strict] [--duplicates qualify|error]

Builds the search index of the catalog and writes it to FILE, for createToolSift({ tools, index })
in another process (a serverless function loads it instead of building; see the README). The
index is used only with the same tools in the same order, else rebuilt with a warning.`;

const flags = { ...catalogFlags, out: { type: "string" } } as const;

/** `toolsift index`: writes the saved search index of a catalog. */
export async function indexCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (!values.out) throw new UsageError("--out FILE is required: where to write the index.");
  const progress = createProgress(io);
  const tools = await loadTools(values, io, progress);
  progress.step(`indexing ${tools.length} tools`);
  // the index of the tools as createToolSift stores them (its catalog normalises each tool), so
  // the function that loads it with the same tools finds the same fingerprint
  const bytes = createToolSift({ tools, tokens: "estimate" }).exportIndex();
  try {
    writeFileSync(values.out, bytes);
  } catch (error) {
    throw new UsageError(
      `Could not write --out ${values.out} (${path.resolve(values.out)}): ${(error as Error).message}. Pass a writable path.`,
    );
  }
  io.stderr(`wrote the index of ${tools.length} tools to ${values.out} (${bytes.length} bytes)\n`);
  return 0;
}
