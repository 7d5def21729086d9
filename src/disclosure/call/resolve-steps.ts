/**
 * The call's first steps: name the tool, unwrap the bridge, resolve the tool among the visible
 * ones, reveal a deferred tool called directly. Each may stop the call; none runs anything.
 */
import { unknownToolMessage } from "../meta/meta-handlers.js";
import { buildMetaTools } from "../meta/meta-tools.js";
import { type CallState, type CallStop, refuse, toolOf } from "./call-state.js";
import { readArguments, readBridgeTarget } from "./repair-arguments.js";

/** Whether `name` is one of the meta tools' names (whether the plan offers it is asked apart). */
function isMetaName(state: CallState, name: string): boolean {
  const { names } = state.context.settings;
  return name === names.search || name === names.describe || name === names.call;
}

/** A client or a parser may send a call without a name; it gets an answer, not a TypeError. */
export function requireName(state: CallState): CallStop | undefined {
  const name: unknown = state.input.name;
  if (typeof name === "string" && name !== "") return undefined;
  const got = name === "" ? "an empty name" : `${name === null ? "null" : typeof name}`;
  const text = `The call needs the name of a tool to run (got ${got}). Search for the tool you need.`;
  return refuse(text, "tool_not_found");
}

/** Through the bridge, every later step sees the real tool and its own arguments. */
export function unwrapBridge(state: CallState): CallStop | undefined {
  const { names } = state.context.settings;
  if (state.input.name !== names.call || !state.context.offered().has(names.call)) return undefined;
  state.route = "bridge";
  const outer = readArguments(state.input.arguments);
  const target = outer.ok ? readBridgeTarget(outer.arguments) : outer;
  if (!target.ok) {
    return refuse(`${names.call} did not run anything: ${target.message}.`, "invalid_arguments");
  }
  state.repairs.push(...(outer.ok ? outer.repairs : []), ...target.repairs);
  state.name = target.name;
  state.rawArguments = target.arguments;
  if (isMetaName(state, target.name)) {
    const text = `${names.call} cannot run "${target.name}": meta tools are called directly, never through ${names.call}.`;
    return refuse(text, "bridge_recursion");
  }
  return undefined;
}

/** Looks the tool up among the offered meta tools and the visible tools; hidden and unknown
 * names get the same answer, so policy-hidden tools cannot be found by probing. */
export function resolveTool(state: CallState): CallStop | undefined {
  const { basis, settings } = state.context;
  // only a meta tool's name needs the plan's offer: a plain tool's call skips that lookup
  state.isMeta =
    state.route === "direct" &&
    isMetaName(state, state.name) &&
    state.context.offered().has(state.name);
  if (state.isMeta) {
    state.route = "meta";
    state.tool = buildMetaTools({
      names: settings.names,
      strategy: "bridge",
      searchable: 0,
      defaultLimit: 1,
      maxLimit: 1,
      listing: "",
    }).find((meta) => meta.name === state.name);
  } else {
    state.tool = basis.visible.get(state.name);
  }
  if (!state.tool) {
    const extra = state.route === "direct" ? state.context.offered() : [];
    return refuse(unknownToolMessage(state.name, basis, extra), "tool_not_found");
  }
  if (state.route === "bridge" && !basis.deferrableNames.has(state.tool.name)) {
    const text = `"${state.tool.name}" is already loaded: call it directly instead of through ${settings.names.call}.`;
    return refuse(text, "call_directly");
  }
  return undefined;
}

/** A deferred tool called directly was legal and visible, so it stays loaded from now on. */
export function revealCalled(state: CallState): undefined {
  const { basis, settings, store } = state.context;
  const tool = toolOf(state);
  if (
    state.route === "direct" &&
    basis.deferrableNames.has(tool.name) &&
    settings.strategy === "reveal" &&
    !settings.nativeSearch
  ) {
    state.revealed.push(...store.reveal(state.input.session, [tool.name]));
  }
  return undefined;
}
