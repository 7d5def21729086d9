/**
 * The two directions between AI SDK tools and toolsift definitions: an AI SDK tool becomes a
 * catalog definition whose handler runs the tool's own `execute`, and a catalog definition (or a
 * meta tool) becomes an AI SDK tool whose `execute` goes through `sift.execute`, so policy,
 * argument checks, hooks and result budgets apply to every call.
 */

import { asSchema, jsonSchema, type ToolSet } from "ai";
import type { JsonSchema, ToolDefinition, ToolHandler, ToolResult } from "../../catalog/index.js";
import type { ToolSift } from "../../create-toolsift.js";
import type { ExecuteOutcome } from "../../disclosure/index.js";
import type { ToolKeys } from "./tool-keys.js";

/** One tool of an AI SDK tools record. */
export type AnyTool = ToolSet[string];

/** The options the SDK passes to `execute` (read off the tool type: ai@7 made them generic). */
export type CallOptions = Parameters<NonNullable<AnyTool["execute"]>>[1];

/** What the adapter hands a handler through `ExecuteInput.host` for one AI SDK tool call. */
export interface HostCall {
  options: CallOptions;
  /** The tool's own output, set by the handler: returned as-is when no budget cut it. */
  output?: unknown;
  /** The result the handler gave toolsift for that output. */
  result?: ToolResult;
}

/** A tool the provider runs itself (web search, the provider's tool search): never cataloged. */
export function isProviderTool(tool: AnyTool): boolean {
  return (tool as { type?: unknown }).type === "provider";
}

/** Generators stream preliminary outputs; the last one is the tool's output. */
async function finalOutput(value: unknown): Promise<unknown> {
  if (value === null || typeof value !== "object" || !(Symbol.asyncIterator in value)) return value;
  let last: unknown;
  for await (const item of value as AsyncIterable<unknown>) last = item;
  return last;
}

function asToolResult(output: unknown): ToolResult {
  if (
    output !== null &&
    typeof output === "object" &&
    Array.isArray((output as { content?: unknown }).content)
  ) {
    return output as ToolResult;
  }
  const text = typeof output === "string" ? output : (JSON.stringify(output) ?? "null");
  return { content: [{ type: "text", text }] };
}

function handlerOf(name: string, execute: NonNullable<AnyTool["execute"]>): ToolHandler {
  return async (args, context) => {
    const call = context.host as HostCall | undefined;
    // the SDK's own options go through whole (ai@7 adds `context` and a sandbox); the signal is
    // toolsift's, which also fires on the call's time limit
    const options = {
      toolCallId: `toolsift-${name}`,
      messages: [],
      ...call?.options,
      ...(context.signal ? { abortSignal: context.signal } : {}),
    } as CallOptions;
    const output = await finalOutput(await execute(args, options));
    const result = asToolResult(output);
    if (call) {
      call.output = output;
      call.result = result;
    }
    return result;
  };
}

/** The catalog definition of an AI SDK tool; its JSON schema is resolved once, here. */
export async function toToolDefinition(
  name: string,
  tool: AnyTool,
  defer: ToolDefinition["defer"],
): Promise<ToolDefinition> {
  const schema = (await asSchema(tool.inputSchema).jsonSchema) as JsonSchema;
  // ai@7 also allows a description function of the call context, which the catalog cannot hold
  const description = typeof tool.description === "string" ? tool.description : (tool.title ?? "");
  return {
    name,
    description,
    inputSchema: schema,
    ...(tool.title ? { title: tool.title } : {}),
    ...(defer ? { defer } : {}),
    ...(tool.execute ? { handler: handlerOf(name, tool.execute) } : {}),
  };
}

function textOf(result: ToolResult): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
    .join("\n");
}

function sameContent(left: ToolResult, right: ToolResult): boolean {
  if (left.content.length !== right.content.length) return false;
  return left.content.every((block, index) => {
    const other = right.content[index];
    if (block === other) return true;
    return block.type === "text" && other?.type === "text" && block.text === other.text;
  });
}

/** The error an AI SDK `execute` throws for a failed call: the SDK sends its message to the
 * model as the tool's error result. `code` is toolsift's snake_case reason. */
export class ToolCallFailedError extends Error {
  readonly code: string;
  constructor(tool: string, code: string, message: string) {
    super(message);
    this.name = "ToolCallFailedError";
    this.code = code;
    Object.defineProperty(this, "tool", { value: tool, enumerable: true });
  }
}

/** What `execute` returns to the AI SDK: the tool's own output when the budget left it whole,
 * its budgeted text when it was cut (or for meta tools), an error when the call failed. */
export function outputOf(outcome: ExecuteOutcome, call: HostCall): unknown {
  if (outcome.isError) {
    throw new ToolCallFailedError(outcome.tool, outcome.errorCode ?? "tool_error", textOf(outcome));
  }
  if (call.result && call.output !== undefined && sameContent(outcome, call.result)) {
    return call.output;
  }
  return textOf(outcome);
}

/** An AI SDK tool that runs a catalog tool (or a meta tool) through `sift.execute`; a meta tool
 * gets `keys`, which map tool names in its input home and in its output to record keys. */
export function fromToolDefinition(
  definition: ToolDefinition,
  sift: ToolSift,
  session: string,
  keys?: ToolKeys,
): AnyTool {
  return {
    description: keys ? keys.toKeys(definition.description) : definition.description,
    inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    ...(definition.title ? { title: definition.title } : {}),
    execute: async (input: unknown, options: CallOptions) => {
      const call: HostCall = { options };
      const outcome = await sift.execute({
        session,
        name: definition.name,
        arguments: keys ? keys.toNames(input) : input,
        host: call,
        ...(options.abortSignal ? { signal: options.abortSignal } : {}),
      });
      const output = outputOf(outcome, call);
      return keys && typeof output === "string" ? keys.toKeys(output) : output;
    },
  };
}
