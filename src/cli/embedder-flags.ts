/**
 * The `--embedder*` flags of `search`, `rank`, `eval` and `inspect`: the same block as a gateway
 * config's `embedder`, from a JSON file or from flags (docs/semantic-search.md).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
// types only: the parser and the embedders are imported when a flag asks for them, so a search
// without an embedder loads none of them (test/package/lazy-modules.test.ts)
import type { EmbedderConfig } from "../mcp/config/embedder-config.js";
import type { OpenedEmbedder } from "./configured-embedder.js";
import { cacheDir } from "./index-cache.js";
import type { CliIO } from "./io.js";
import { safeText } from "./terminal.js";
import { UsageError } from "./usage-error.js";

export const embedderFlags = {
  embedder: { type: "string" },
  "embedder-url": { type: "string" },
  "embedder-model": { type: "string" },
  "embedder-key-env": { type: "string" },
  "word-vectors": { type: "string" },
} as const;

export const embedderUsage = `Semantic search: --embedder FILE.json (an "embedder" block as in a gateway config), or
--embedder-url URL --embedder-model M [--embedder-key-env VAR] (an OpenAI-compatible endpoint;
the key is read from the variable VAR), or --word-vectors FILE (a word-vector table). Tool
vectors are cached in the --cache folder; an endpoint that is down leaves search lexical.`;

type Values = { [K in keyof typeof embedderFlags]?: string | undefined };

/** Which flag a block key came from, so a problem names the flag the user typed. */
const FLAG_OF: Record<string, string> = {
  "embedder.baseURL": "--embedder-url",
  "embedder.model": "--embedder-model",
  "embedder.apiKey": "--embedder-key-env",
  "embedder.wordVectors": "--word-vectors",
};

async function checked(
  raw: unknown,
  env: CliIO["env"],
  source: string,
  fromFlags: boolean,
): Promise<EmbedderConfig> {
  // the block's parser only: importing toolsift/mcp's index would load the optional MCP SDK
  const { parseEmbedderConfig } = await import("../mcp/config/embedder-config.js");
  const { config, problems } = parseEmbedderConfig(raw, { env: env ?? process.env });
  if (problems.length === 0 && config) return config;
  const named = problems.map((problem) =>
    fromFlags
      ? problem.replace(/^embedder(\.\w+)?/, (key) => FLAG_OF[key] ?? "--embedder-url")
      : problem,
  );
  throw new UsageError(
    `${source} has ${named.length} problem(s):\n${named.map((line) => `  ${line}`).join("\n")}`,
  );
}

/** The block the flags ask for; undefined when no embedder flag is given. */
export async function embedderFromFlags(
  values: Values,
  env: CliIO["env"],
): Promise<EmbedderConfig | undefined> {
  const file = values.embedder;
  const url = values["embedder-url"];
  const vectors = values["word-vectors"];
  const given = [file && "--embedder", url && "--embedder-url", vectors && "--word-vectors"].filter(
    Boolean,
  );
  if (given.length > 1) throw new UsageError(`Pass one of ${given.join(", ")}, not several.`);
  if (file !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new UsageError(
        `--embedder ${file}: cannot read it as JSON (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); write a block such as {"baseURL": "http://localhost:11434/v1", "model": "nomic-embed-text"}.`,
      );
    }
    const config = await checked(raw, env, `--embedder ${file}`, false);
    if (config.kind === "word-vectors") config.file = path.resolve(path.dirname(file), config.file);
    return config;
  }
  if (url === undefined && (values["embedder-model"] ?? values["embedder-key-env"]) !== undefined)
    throw new UsageError("--embedder-model and --embedder-key-env go with --embedder-url URL.");
  if (vectors !== undefined)
    return await checked({ wordVectors: path.resolve(vectors) }, env, "--word-vectors", true);
  if (url === undefined) return undefined;
  const keyEnv = values["embedder-key-env"];
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv))
    throw new UsageError(
      `--embedder-key-env takes the name of a variable (e.g. OPENAI_API_KEY), not the key itself.`,
    );
  return await checked(
    {
      baseURL: url,
      ...(values["embedder-model"] !== undefined ? { model: values["embedder-model"] } : {}),
      ...(keyEnv !== undefined ? { apiKey: `\${${keyEnv}}` } : {}),
    },
    env,
    "The embedder flags",
    true,
  );
}

/** Prints a warning line on stderr, as the CLI's other warnings. */
export function warningPrinter(io: CliIO): (message: string) => void {
  return (message) => io.stderr(`warning: ${safeText(message, { oneLine: true })}\n`);
}

/** The embedder of the flags with its vector cache, for one command; undefined without flags. */
export async function openFlagEmbedder(
  values: Values & { cache?: string | undefined; "no-cache"?: boolean | undefined },
  io: CliIO,
): Promise<OpenedEmbedder | undefined> {
  const config = await embedderFromFlags(values, io.env);
  if (config === undefined) return undefined;
  const { openEmbedder } = await import("./configured-embedder.js");
  const warn = warningPrinter(io);
  try {
    // one command: an endpoint that fails once is not asked again (one warning)
    return openEmbedder(config, {
      cacheDir: cacheDir(values, io.env ?? process.env),
      warn,
      retryMs: Infinity,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
