import { createToolSift } from "../../create-toolsift.js";
import type { DisclosureMode, DisclosureStrategy } from "../../disclosure/index.js";
import type { ProviderId } from "../../providers/index.js";
import { catalogFlags, contextWindowFlag, oneOf, parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { catalogOf, loadTools } from "../load.js";
import { createProgress, jsonText, safeText } from "../terminal.js";
import { UsageError } from "../usage-error.js";

export const prepareUsage = `Usage: toolsift prepare --catalog PATH --provider anthropic|openai-chat|openai-responses|gemini
       [--model M] [--native|--client] [--strategy reveal|bridge] [--reveal NAME,...]
       [--mode auto|on|off] [--context-window TOKENS] [--listing] [--all-loaded] [--strict]
       [--duplicates qualify|error]

Prints the request fragment toolsift would send for the first turn of a session, as JSON: the
provider's tool fields (Anthropic and OpenAI: "tools" and "tool_choice"; Gemini: "tools" and
"toolConfig"), the system note, the search mode and the conversion warnings.
--reveal loads those tools as if an earlier search had found them; --all-loaded sends every tool
converted and loaded (no deferral). Without --model, anthropic and openai-responses use
client-side search (the model decides whether native search is available).`;

const providers: readonly ProviderId[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];

const flags = {
  ...catalogFlags,
  provider: { type: "string" },
  model: { type: "string" },
  native: { type: "boolean" },
  client: { type: "boolean" },
  strategy: { type: "string" },
  reveal: { type: "string" },
  mode: { type: "string" },
  "context-window": { type: "string" },
  listing: { type: "boolean" },
  "all-loaded": { type: "boolean" },
} as const;

/** Providers whose native search depends on the model; without --model the CLI says so. */
const modelTabled: readonly ProviderId[] = ["anthropic", "openai-responses"];

/** `toolsift prepare`: the request fragment for one provider, printed as JSON. */
export async function prepareCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const provider = oneOf(values.provider, "provider", providers);
  if (!provider) throw new UsageError(`--provider is required: one of ${providers.join(", ")}.`);
  if (values.native && values.client) throw new UsageError("Pass --native or --client, not both.");
  const strategy = oneOf<DisclosureStrategy>(values.strategy, "strategy", ["reveal", "bridge"]);
  let mode = oneOf<DisclosureMode>(values.mode, "mode", ["auto", "on", "off"]);
  if (values["all-loaded"]) {
    if (mode !== undefined && mode !== "off")
      throw new UsageError("--all-loaded means --mode off.");
    mode = "off";
  }
  const contextWindow = contextWindowFlag(values["context-window"]);
  const progress = createProgress(io);
  const tools = await loadTools(values, io, progress);
  progress.step(`planning the turn over ${tools.length} tools`);
  // the same lenient catalog as `search`, so prepare accepts every catalog search accepts
  const sift = createToolSift({ catalog: catalogOf(tools) });
  const noModel =
    values.model === undefined &&
    !values.native &&
    !values.client &&
    modelTabled.includes(provider);

  const session = "cli";
  const reveal = (values.reveal ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = reveal.filter((name) => !sift.catalog.has(name));
  if (unknown.length > 0) {
    const hints = unknown.map((name) => {
      const closest = sift.search(name, { limit: 3 }).hits.map((hit) => hit.name);
      const shown = safeText(name, { oneLine: true });
      return closest.length > 0
        ? `"${shown}" (closest: ${closest.map((hit) => safeText(hit, { oneLine: true })).join(", ")})`
        : `"${shown}"`;
    });
    throw new UsageError(`--reveal names tools that are not in the catalog: ${hints.join("; ")}.`);
  }
  if (reveal.length > 0) sift.disclosure.store.reveal(session, reveal);

  const turn = sift.prepare({
    session,
    provider,
    contextWindow,
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.native
      ? { search: "native" as const }
      : values.client || noModel
        ? { search: "client" as const }
        : {}),
    ...(strategy ? { strategy } : {}),
    ...(mode ? { mode } : {}),
    ...(values.listing ? { listing: true } : {}),
  });
  const output = {
    ...turn.request,
    system: turn.system,
    mode: turn.mode,
    search: noModel
      ? `no --model given: client-side search (pass --model to look the model up in ${provider}'s tool-search table, or --native to force native search)`
      : turn.searchReason,
    plan: turn.plan.reason,
    warnings: turn.warnings,
  };
  io.stdout(jsonText(output));
  return 0;
}
