/**
 * The argument steps: read (and repair) what the model sent, validate it against the tool's
 * schema, run the before-hooks (arguments they replace are validated again), and read a meta
 * tool's arguments once, for the embedding step and the handler.
 */
import type { ToolDefinition } from "../../catalog/index.js";
import { errorText } from "../../internal/index.js";
import { readDescribeArguments, readSearchArguments } from "../meta/meta-arguments.js";
import type { DisclosureOptions } from "../types.js";
import { type CallState, type CallStop, refuse, toolOf } from "./call-state.js";
import { readArguments, unnestArguments } from "./repair-arguments.js";
import { checkArguments, loadArgumentValidator } from "./validate-arguments.js";

/** Reads the arguments (a JSON string, null, a nested `arguments` object are repaired). */
export function readCallArguments(state: CallState): CallStop | undefined {
  const tool = toolOf(state);
  const read = readArguments(state.rawArguments);
  if (!read.ok) {
    return refuse(`Tool "${tool.name}" did not run: ${read.message}.`, "invalid_arguments");
  }
  const unnested = state.isMeta
    ? { arguments: read.arguments, repairs: [] }
    : unnestArguments(read.arguments, tool.inputSchema);
  state.repairs.push(...read.repairs, ...unnested.repairs);
  state.arguments = unnested.arguments;
  return undefined;
}

/** Validates a catalog tool's arguments against its input schema, with scalar repairs. */
export async function validateCallArguments(state: CallState): Promise<CallStop | undefined> {
  if (state.isMeta) return undefined;
  await loadArgumentValidator();
  const check = checkArguments(toolOf(state), state.arguments, {
    uncheckedSchemas: state.context.options.uncheckedSchemas ?? "refuse",
  });
  state.repairs.push(...check.repairs);
  if (!check.ok) return refuse(check.message, check.code);
  state.arguments = check.arguments;
  return undefined;
}

type Replaced =
  | { ok: true; arguments: { [key: string]: unknown }; repairs: string[] }
  | { ok: false; message: string };

/**
 * Checks arguments a before-hook put in place of the validated ones: they must be an object and,
 * for a catalog tool, pass its schema again (a hook cannot smuggle in what validation refused).
 */
function checkReplacedArguments(
  tool: ToolDefinition,
  value: unknown,
  isMeta: boolean,
  options: DisclosureOptions,
): Replaced {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    return { ok: false, message: `expected an object, got ${got}` };
  }
  const args = value as { [key: string]: unknown };
  if (isMeta) return { ok: true, arguments: args, repairs: [] };
  const check = checkArguments(tool, args, {
    uncheckedSchemas: options.uncheckedSchemas ?? "refuse",
  });
  return check.ok
    ? { ok: true, arguments: check.arguments, repairs: check.repairs }
    : { ok: false, message: `its input schema rejects them:\n${check.problems}` };
}

/** The event hooks see, with the arguments as they stand. */
export function hookEvent(state: CallState) {
  const tool = toolOf(state);
  return {
    session: state.input.session,
    name: tool.name,
    tool,
    arguments: state.arguments,
    route: state.route,
  };
}

/** Runs the before-hooks in order: one may deny the call or replace its arguments. */
export async function runBeforeHooks(state: CallState): Promise<CallStop | undefined> {
  const { options } = state.context;
  const tool = toolOf(state);
  for (const hook of options.hooks?.before ?? []) {
    try {
      const decision = await hook(hookEvent(state));
      if (decision?.deny !== undefined) {
        return refuse(`Tool "${tool.name}" was not run: ${decision.deny}`, "denied");
      }
      if (decision?.arguments !== undefined) {
        const replaced = checkReplacedArguments(tool, decision.arguments, state.isMeta, options);
        if (!replaced.ok) {
          const text = `Tool "${tool.name}" was not run: a before-call hook replaced its arguments with invalid ones; ${replaced.message}\nThe hook must return arguments that match the tool's input schema (the model's arguments were valid).`;
          return refuse(text, "hook_failed");
        }
        state.repairs.push(...replaced.repairs.map((repair) => `before-call hook: ${repair}`));
        state.arguments = replaced.arguments;
      }
    } catch (error) {
      const text = `Tool "${tool.name}" was not run: a before-call check failed (${errorText(error)}).`;
      return refuse(text, "hook_failed");
    }
  }
  return undefined;
}

/** Reads a meta tool's arguments once, after the hooks had their say. */
export function readMetaArguments(state: CallState): undefined {
  if (!state.isMeta) return undefined;
  const { settings } = state.context;
  state.metaArguments =
    toolOf(state).name === settings.names.search
      ? readSearchArguments(state.arguments, settings)
      : readDescribeArguments(state.arguments);
  return undefined;
}
