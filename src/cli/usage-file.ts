/** `--usage FILE`: JSON lines of `{ "query", "tool", "session" }` turned into the learned field. */

import { readFile } from "node:fs/promises";
import { UsageEvidence } from "../learning/index.js";
import type { ToolSearchIndex } from "../search/index.js";
import type { CliIO } from "./io.js";
import { UsageError } from "./usage-error.js";

/** One line of a usage file: a session searched `query` and then called `tool`. */
export interface UsageLine {
  query: string;
  tool: string;
  session: string;
}

/** Reads a usage file; a bad line is a usage error naming the line and the expected shape. */
export async function readUsage(path: string): Promise<UsageLine[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read usage file "${path}": ${(error as Error).message}`);
  }
  const usage: UsageLine[] = [];
  const lines = text.split("\n");
  for (let lineIndex = 0; lineIndex < lines.length; lineIndex += 1) {
    const line = lines[lineIndex]?.trim();
    if (!line) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    const record = parsed as Partial<Record<keyof UsageLine, unknown>> | undefined;
    if (
      typeof record !== "object" ||
      record === null ||
      typeof record.query !== "string" ||
      typeof record.tool !== "string" ||
      (typeof record.session !== "string" && typeof record.session !== "number")
    ) {
      throw new UsageError(
        `${path}:${lineIndex + 1}: each line must be a JSON object {"query": string, "tool": string, "session": string}.`,
      );
    }
    usage.push({ query: record.query, tool: record.tool, session: String(record.session) });
  }
  return usage;
}

/**
 * Records the usage lines as evidence and sets the index's learned field from it; lines naming
 * a tool the catalog lacks are skipped with one warning.
 */
export function applyUsage(index: ToolSearchIndex, usage: readonly UsageLine[], io: CliIO): void {
  const evidence = new UsageEvidence();
  const unknown = new Set<string>();
  for (const line of usage) {
    const tool = index.get(line.tool);
    if (tool === undefined) unknown.add(line.tool);
    else evidence.record(line.query, tool, line.session);
  }
  if (unknown.size > 0) {
    const names = [...unknown].slice(0, 5).join(", ");
    io.stderr(
      `warning: ${unknown.size} tool(s) of the usage file are not in the catalog and were skipped: ${names}${unknown.size > 5 ? ", …" : ""}\n`,
    );
  }
  index.setLearned(evidence.learnedWords((name) => index.get(name)));
}
