/**
 * The inspector's Learned view: per tool, the words search learned from use (docs/inspector.md),
 * and the route that removes one. Type-only imports: the page never loads the learning code
 * itself; the gateway hands it its sift's learning.
 */
import type { IncomingMessage } from "node:http";
import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import type { LearnedWord, UsageLearning } from "../learning/index.js";

/** Where the Learned view reads from (`InspectorServerOptions.learned`). */
export interface LearnedSource {
  /** The sift's learning (`sift.learning`); undefined when learning is off. */
  learning: UsageLearning | undefined;
  /** The catalog's current tool of a name: evidence about a replaced tool is left out, as search
   * leaves it out. */
  tool?: (name: string) => ToolDefinition | undefined;
  /** Shown when learning is off: how to turn it on where this inspector runs. */
  offMessage?: string;
}

export interface LearnedView {
  enabled: boolean;
  /** Why the list is empty, or how to turn learning on. */
  message?: string;
  /** By tool name; each tool's words strongest first. */
  tools: { tool: string; words: LearnedWord[] }[];
}

export const LEARNED_REMOVE_PATH = "/api/learned/remove";

const OFF_MESSAGE =
  'Learning is off. A gateway learns by default: serve a config (toolsift inspect --config FILE or toolsift serve --inspect) without --no-learning and without "learning": false; in the library, pass learning: {} to createToolSift.';

/** Largest remove body read: a tool name and a word. */
const MAX_BODY_BYTES = 4096;

/** The view of `source` (none: learning is off). */
export function learnedView(source: LearnedSource | undefined): LearnedView {
  const learning = source?.learning;
  if (learning === undefined) {
    return { enabled: false, message: source?.offMessage ?? OFF_MESSAGE, tools: [] };
  }
  const tools = [...learning.evidence.learnedWords(source?.tool)]
    .map(([tool, words]) => ({ tool, words }))
    .sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  return tools.length > 0
    ? { enabled: true, tools }
    : {
        enabled: true,
        message:
          "Nothing learned yet: a word counts once several sessions searched with it and then called the tool.",
        tools,
      };
}

/** Reads a small JSON body; anything else is a ToolsiftError naming what to send. */
async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  // only JSON: a cross-site form cannot send it without a preflight this server never grants
  if (type !== "application/json") {
    throw new ToolsiftError(
      "invalid_option",
      `POST ${LEARNED_REMOVE_PATH} takes Content-Type application/json; got "${type ?? ""}".`,
    );
  }
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new ToolsiftError(
        "invalid_option",
        `The body of ${LEARNED_REMOVE_PATH} is over ${MAX_BODY_BYTES} bytes; send only {"tool", "word"}.`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ToolsiftError(
      "invalid_option",
      `The body of ${LEARNED_REMOVE_PATH} is not JSON; send {"tool": NAME, "word": WORD}.`,
    );
  }
}

/** Removes one learned word of one tool and updates the index at once. */
export async function removeLearned(
  source: LearnedSource | undefined,
  request: IncomingMessage,
): Promise<{ removed: boolean; tool: string; word: string }> {
  const body = (await readJsonBody(request)) as { tool?: unknown; word?: unknown } | null;
  const { tool, word } = body ?? {};
  if (typeof tool !== "string" || typeof word !== "string" || !tool || !word) {
    throw new ToolsiftError(
      "invalid_option",
      `POST ${LEARNED_REMOVE_PATH} needs {"tool": NAME, "word": WORD}, both non-empty strings.`,
    );
  }
  const learning = source?.learning;
  if (learning === undefined) {
    throw new ToolsiftError("invalid_option", `Nothing to remove: ${OFF_MESSAGE}`);
  }
  const removed = learning.evidence.removeWord(tool, word);
  // search ranks with the learned field it was last handed: hand it the new one now
  if (removed) learning.refresh(true);
  return { removed, tool, word };
}
