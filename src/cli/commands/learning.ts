import { type LearningSnapshot, UsageEvidence } from "../../learning/index.js";
import { eraseLearningFile, readLearningFile } from "../../learning/node.js";
import { parseCommand } from "../args.js";
import { learningFileOf } from "../gateway-learning.js";
import type { CliIO } from "../io.js";
import { loadMCP } from "../load-mcp.js";
import { safeText } from "../terminal.js";
import { UsageError } from "../usage-error.js";

export const learningUsage = `Usage: toolsift learning show|erase (--config FILE | --file F) [--json]

What a gateway learned from use: which query words led sessions to call which tool (only
stemmed words, tool names and hashed session ids are kept). The file is the config's
"learning": {"file": F}, else $XDG_STATE_HOME/toolsift/learning/NAME-HASH.json (default
~/.local/state/toolsift/learning/), or F given with --file.
  show    each tool's learned words: weight (0-1) and the distinct sessions behind each
          (words that count; words with fewer sessions are counted, not listed)
  erase   deletes the file; a running gateway notices within 30 s and forgets it too
--json prints show's list as JSON.`;

const flags = {
  config: { type: "string" },
  file: { type: "string" },
  json: { type: "boolean" },
} as const;

/** The learning file the flags name (undefined: learning is off in the config). */
async function fileOf(
  values: { config?: string; file?: string },
  io: CliIO,
): Promise<string | undefined> {
  if (values.file !== undefined) return values.file;
  const configPath = values.config as string;
  const config = await (await loadMCP()).loadGatewayConfig(configPath);
  return learningFileOf(config, configPath, io.env ?? process.env);
}

/** Each tool's learned words, and per tool the words still short of support. */
function learnedList(snapshot: LearningSnapshot) {
  const evidence = new UsageEvidence();
  evidence.load(snapshot);
  const learned = evidence.learnedWords();
  return Object.keys(snapshot.tools)
    .sort()
    .map((tool) => {
      const words = (learned.get(tool) ?? []).map(({ word, weight, sessions }) => ({
        word,
        weight: Math.round(weight * 1000) / 1000,
        sessions,
      }));
      const pending = Object.keys(snapshot.tools[tool]?.words ?? {}).length - words.length;
      return { tool, words, pending };
    });
}

function printList(list: ReturnType<typeof learnedList>, file: string, io: CliIO): void {
  io.stdout(`${file}\n`);
  for (const { tool, words, pending } of list) {
    const shown = words.map(
      (entry) => `${entry.word} (${entry.weight.toFixed(2)}, ${entry.sessions} sessions)`,
    );
    const more =
      pending > 0 ? `${shown.length > 0 ? "; " : ""}${pending} word(s) not yet counted` : "";
    io.stdout(`${safeText(tool, { oneLine: true })}: ${safeText(shown.join(", "))}${more}\n`);
  }
}

/** `toolsift learning show|erase`: list or erase a gateway's learned words. */
export async function learningCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  const [action, extra] = positionals;
  if (action !== "show" && action !== "erase") {
    throw new UsageError(`Say what to do: "show" or "erase", got ${JSON.stringify(action ?? "")}.`);
  }
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
  if ((values.config === undefined) === (values.file === undefined)) {
    throw new UsageError("Pass one of --config FILE (the gateway's config) and --file F.");
  }
  const file = await fileOf(values, io);
  if (file === undefined) {
    io.stdout(`Learning is off in ${values.config} ("learning": false): nothing is kept.\n`);
    return 0;
  }
  if (action === "erase") {
    io.stdout(
      eraseLearningFile(file) ? `Erased ${file}.\n` : `Nothing to erase: no file at ${file}.\n`,
    );
    return 0;
  }
  const snapshot = readLearningFile(file);
  if (snapshot === undefined) {
    io.stdout(values.json ? "[]\n" : `Nothing learned yet: no file at ${file}.\n`);
    return 0;
  }
  const list = learnedList(snapshot as LearningSnapshot);
  if (values.json) io.stdout(`${JSON.stringify(list, null, 2)}\n`);
  else printList(list, file, io);
  return 0;
}
