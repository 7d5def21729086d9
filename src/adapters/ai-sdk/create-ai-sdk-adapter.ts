/**
 * `createAISDKAdapter`: toolsift behind the Vercel AI SDK's `tools` and `prepareStep`. Each step
 * asks toolsift for the session's plan and turns it into `activeTools`, so the search meta tool is
 * always there, tools it finds become active in the next step, and policy-hidden tools never do.
 * Every call runs through `sift.execute` (policy again, argument checks, hooks, result budgets).
 */

import type { ToolSet } from "ai";
import type { ToolDefinition } from "../../catalog/index.js";
import { createToolSift, type ToolSift, type ToolSiftOptions } from "../../create-toolsift.js";
import type { TurnPlan, TurnSettings } from "../../disclosure/index.js";
import { ToolsiftError } from "../../errors.js";
import { createToolKeys } from "./tool-keys.js";
import {
  type AnyTool,
  fromToolDefinition,
  type HostCall,
  isProviderTool,
  outputOf,
  toToolDefinition,
} from "./wrap-ai-sdk-tool.js";

/** Provider-side tool search (Anthropic `defer_loading` + tool search tool, OpenAI Responses
 * `tool_search`): deferred tools are sent with `deferLoading` and the provider searches them. */
export interface AISDKNativeSearch {
  /** The provider's key in `providerOptions`, where `deferLoading` is set. */
  provider: "anthropic" | "openai";
  /** The provider's search tool, e.g. `anthropic.tools.toolSearchBm25_20251119()` or
   * `openai.tools.toolSearch()`. */
  tool: AnyTool;
  /** Its key in the tools record; default `tool_search`. */
  name?: string;
}

/** Options of `createAISDKAdapter`. */
export interface AISDKAdapterOptions {
  /** AI SDK tools to sift; provider tools (`type: "provider"`) pass through and stay active. */
  tools?: ToolSet;
  /** An existing toolsift instance: its catalog tools become AI SDK tools as they get active. */
  sift?: ToolSift;
  /** Options of the instance created when `sift` is not given. */
  toolsift?: ToolSiftOptions;
  /** Defer policy of the AI SDK tools. Default: none, so they are the host's own tools and stay
   * loaded (tools from MCP servers, loaded into the ToolSift catalog, are deferred). Pass `auto`
   * for AI SDK tools that wrap MCP servers (an AI SDK MCP client's `tools()`), so they defer too. */
  defer?: ToolDefinition["defer"];
  /** Settings of every step's plan (`contextWindow`, `mode`, `definitionBudget`…). */
  turn?: TurnSettings;
  /** Use the provider's own tool search instead of the client-side `tool_search` meta tool. */
  nativeSearch?: AISDKNativeSearch;
}

/** One conversation's view: pass `tools` and `prepareStep` to `generateText`/`streamText`. */
export interface AISDKSession {
  readonly id: string;
  /** The tools record; the adapter adds catalog and meta tools to it as they get active. */
  readonly tools: ToolSet;
  /** Sets `activeTools` from the session's plan; resets the loop-total budget at step 0. */
  readonly prepareStep: (options: { stepNumber: number }) => { activeTools: string[] };
  /** The active tool names of the session's current plan (what `prepareStep` would return). */
  activeTools(): string[];
  /** The plan of the last step (undefined before the first). */
  lastPlan(): TurnPlan | undefined;
}

/** The adapter: one toolsift instance, any number of sessions. */
export interface AISDKAdapter {
  readonly sift: ToolSift;
  session(id: string): AISDKSession;
}

/** Call ids whose result a budget cut, for the tools with their own `toModelOutput`; bounded,
 * since the SDK asks right after the call and a long session makes many calls. */
function createCutCalls(limit = 1_000) {
  const ids = new Set<string>();
  return {
    add(id: string) {
      ids.add(id);
      if (ids.size > limit) ids.delete(ids.values().next().value as string);
    },
    has: (id: string) => ids.has(id),
  };
}

function withDeferLoading(tool: AnyTool, provider: string, defer: boolean): AnyTool {
  const options = (tool.providerOptions ?? {}) as Record<string, Record<string, unknown>>;
  const current = options[provider]?.deferLoading === true;
  if (current === defer) return tool;
  return {
    ...tool,
    providerOptions: { ...options, [provider]: { ...options[provider], deferLoading: defer } },
  } as AnyTool;
}

/** Turns the AI SDK tools (not provider tools) into catalog tools and adds them to the catalog;
 * a name the catalog already has is an error naming it. */
async function addSDKTools(
  sift: ToolSift,
  sdkTools: ToolSet,
  defer: ToolDefinition["defer"] | undefined,
): Promise<void> {
  const definitions = await Promise.all(
    Object.entries(sdkTools)
      .filter(([, tool]) => !isProviderTool(tool))
      .map(([name, tool]) => toToolDefinition(name, tool, defer)),
  );
  for (const definition of definitions) {
    if (sift.catalog.has(definition.name)) {
      throw new ToolsiftError(
        "duplicate_tool",
        `AI SDK tool "${definition.name}" has the same name as a tool already in the ToolSift catalog; rename one of them (or leave it out of \`tools\`).`,
      );
    }
  }
  sift.catalog.add(definitions);
}

/** The session's copy of the user's tools: they keep their schemas, toModelOutput and the rest;
 * only `execute` is routed through `sift.execute`. */
function routeThroughSift(sdkTools: ToolSet, sift: ToolSift, id: string): ToolSet {
  const tools: ToolSet = {};
  const cut = createCutCalls();
  for (const [name, tool] of Object.entries(sdkTools)) {
    if (isProviderTool(tool) || !tool.execute) {
      tools[name] = tool;
      continue;
    }
    const toModelOutput = tool.toModelOutput;
    tools[name] = {
      ...tool,
      execute: async (input: unknown, callOptions) => {
        const call: HostCall = { options: callOptions };
        const outcome = await sift.execute({
          session: id,
          name,
          arguments: input,
          host: call,
          ...(callOptions.abortSignal ? { signal: callOptions.abortSignal } : {}),
        });
        const output = outputOf(outcome, call);
        if (toModelOutput && output !== call.output) cut.add(callOptions.toolCallId);
        return output;
      },
      // a cut result is text, not the shape the tool's own toModelOutput expects
      ...(toModelOutput
        ? {
            toModelOutput: (options: Parameters<typeof toModelOutput>[0]) =>
              cut.has(options.toolCallId)
                ? { type: "text" as const, value: String(options.output) }
                : toModelOutput(options),
          }
        : {}),
    } as AnyTool;
  }
  return tools;
}

/** What every session of one adapter shares. */
interface AdapterSetup {
  sift: ToolSift;
  sdkTools: ToolSet;
  /** Provider tools: passed through and always active. */
  passThrough: string[];
  keys: ReturnType<typeof createToolKeys>;
  native: AISDKNativeSearch | undefined;
  nativeName: string;
  settings: TurnSettings;
}

/** One conversation: its tools record, and each step's active tools from the session's plan. */
function createSession(setup: AdapterSetup, id: string): AISDKSession {
  if (typeof id !== "string" || id === "") {
    throw new ToolsiftError(
      "invalid_option",
      `session(id) needs a non-empty string naming the conversation, got ${JSON.stringify(id)}.`,
    );
  }
  const { sift, keys, native, nativeName } = setup;
  const tools = routeThroughSift(setup.sdkTools, sift, id);
  if (native) tools[nativeName] = native.tool;
  const originals = new Map(Object.entries(tools));
  let plan: TurnPlan | undefined;

  // a catalog or meta tool not yet in the record is added the first time it is active; a
  // meta tool's description carries the listing, so it follows the plan every step
  const ensure = (definition: ToolDefinition, meta: boolean): string => {
    const key = meta ? definition.name : keys.keyOf(definition.name);
    const existing = tools[key];
    if (!existing) tools[key] = fromToolDefinition(definition, sift, id, meta ? keys : undefined);
    else if (meta) {
      const description = keys.toKeys(definition.description);
      if (existing.description !== description) {
        tools[key] = { ...existing, description } as AnyTool;
      }
    }
    return key;
  };
  const activeTools = (): string[] => {
    plan = sift.prepare({ ...setup.settings, session: id });
    const names = plan.metaTools.map((definition) => ensure(definition, true));
    const loaded = plan.loaded.map((definition) => ensure(definition, false));
    names.push(...loaded);
    if (native) {
      // a tool the provider loaded for the model may come back loaded: send it whole again
      for (const key of loaded) {
        tools[key] =
          originals.get(key) ?? withDeferLoading(tools[key] as AnyTool, native.provider, false);
      }
      for (const view of plan.deferred) {
        const key = ensure(view.tool, false);
        tools[key] = withDeferLoading(tools[key] as AnyTool, native.provider, true);
        names.push(key);
      }
      names.push(nativeName);
    }
    names.push(...setup.passThrough.filter((name) => name !== nativeName));
    return names;
  };
  const prepareStep = ({ stepNumber }: { stepNumber: number }) => {
    // the loop-total result budget counts one agent loop of this session
    if (stepNumber === 0) sift.results.reset(id);
    return { activeTools: activeTools() };
  };
  return { id, tools, prepareStep, activeTools, lastPlan: () => plan };
}

/**
 * Creates the adapter; async because AI SDK schemas (zod, lazy JSON schemas) resolve lazily.
 *
 * @example
 * const adapter = await createAISDKAdapter({ tools, toolsift: { policy: { profile: "coding" } } });
 * const { tools: active, prepareStep } = adapter.session("chat-42");
 * await generateText({ model, tools: active, prepareStep, stopWhen: stepCountIs(8), prompt });
 */
export async function createAISDKAdapter(options: AISDKAdapterOptions): Promise<AISDKAdapter> {
  if (options.sift && options.toolsift) {
    throw new ToolsiftError(
      "invalid_option",
      "createAISDKAdapter got both `sift` and `toolsift`: pass an existing instance or the options to create one, not both.",
    );
  }
  const sift = options.sift ?? createToolSift(options.toolsift);
  const sdkTools: ToolSet = options.tools ?? {};
  const passThrough = Object.entries(sdkTools)
    .filter(([, tool]) => isProviderTool(tool))
    .map(([name]) => name);
  await addSDKTools(sift, sdkTools, options.defer);
  const native = options.nativeSearch;
  const setup: AdapterSetup = {
    sift,
    sdkTools,
    passThrough,
    keys: createToolKeys(sift.catalog, new Set(Object.keys(sdkTools))),
    native,
    nativeName: native?.name ?? "tool_search",
    settings: { ...options.turn, ...(native ? { nativeSearch: true } : {}) },
  };
  return { sift, session: (id) => createSession(setup, id) };
}
