/** OpenAI wire types (Chat Completions and Responses): structural copies of the openai SDK's parameter types (the SDK stays a dev dependency). */
import type { BaseFormatOptions, FormattedTools } from "../types.js";

/** A Chat Completions function tool. */
export interface OpenAIChatTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: { [key: string]: unknown };
    strict?: boolean;
  };
}

export type OpenAIChatToolChoice =
  | "auto"
  | "required"
  | "none"
  | { type: "function"; function: { name: string } }
  | {
      type: "allowed_tools";
      allowed_tools: {
        mode: "auto" | "required";
        tools: { type: "function"; function: { name: string } }[];
      };
    };

/** Request fields to spread into `client.chat.completions.create`. */
export interface OpenAIChatRequest {
  tools: OpenAIChatTool[];
  tool_choice?: OpenAIChatToolChoice;
}

/** Options of the Chat Completions formatter. */
export interface OpenAIChatFormatOptions extends BaseFormatOptions {
  /** Send `strict: true` where the schema can be strict without changing its meaning. */
  strict?: boolean;
  /**
   * Send every deferrable tool on every turn and restrict calls with an `allowed_tools` tool
   * choice, so the tools array (and the prompt cache) stays stable while tools are revealed.
   * Falls back to the plain list, with a warning, when that would pass the 128-tool limit.
   */
  stableTools?: boolean;
}

/** The part of a Chat Completions response the parser reads. */
export interface OpenAIChatResponseLike {
  choices: ReadonlyArray<{
    message: {
      tool_calls?: ReadonlyArray<{
        id: string;
        type: string;
        function?: { name: string; arguments: string };
      }> | null;
    };
  }>;
}

/** One `role: "tool"` message per executed call. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export type OpenAIChatFormatted = FormattedTools<
  OpenAIChatTool,
  OpenAIChatToolChoice,
  OpenAIChatRequest
>;

/** A Responses function tool. */
export interface OpenAIResponsesFunction {
  type: "function";
  name: string;
  description: string;
  parameters: { [key: string]: unknown };
  strict: boolean;
  defer_loading?: boolean;
}

/** A namespace of functions; the model sees only its name and description until it loads it. */
export interface OpenAIResponsesNamespace {
  type: "namespace";
  name: string;
  description: string;
  tools: OpenAIResponsesFunction[];
}

/** The tool search tool: hosted (`server`) or answered by toolsift (`client`). */
export interface OpenAIToolSearchTool {
  type: "tool_search";
  execution?: "server" | "client";
  description?: string;
  parameters?: { [key: string]: unknown };
}

export type OpenAIResponsesTool =
  | OpenAIResponsesFunction
  | OpenAIResponsesNamespace
  | OpenAIToolSearchTool;

export type OpenAIResponsesToolChoice =
  | "auto"
  | "required"
  | "none"
  | { type: "function"; name: string };

/** Request fields to spread into `client.responses.create`. */
export interface OpenAIResponsesRequest {
  tools: OpenAIResponsesTool[];
  tool_choice?: OpenAIResponsesToolChoice;
  /** Responses takes system text here. Only when you passed `system`: your prompt, then the plan's note. */
  instructions?: string;
}

/** Options of the Responses formatter. */
export interface OpenAIResponsesFormatOptions extends BaseFormatOptions {
  /** Model id; decides the default of `clientSearch`. */
  model?: string;
  /** Send `strict: true` where the schema can be strict without changing its meaning. */
  strict?: boolean;
  /**
   * Client-side plans under the reveal strategy: `tool_search` declares a client-executed tool
   * search (answered with `tool_search_output`, gpt-5.4 or later); `function` sends the meta
   * tools as plain functions. Default `tool_search` when `model` is gpt-5.4 or later.
   */
  clientSearch?: "tool_search" | "function";
  /** Most functions per namespace in native mode; default 9 (OpenAI advises fewer than 10). */
  namespaceSize?: number;
}

export type OpenAIResponsesFormatted = FormattedTools<
  OpenAIResponsesTool,
  OpenAIResponsesToolChoice,
  OpenAIResponsesRequest
>;

/** The part of a Responses response the parser reads (an SDK `Response` fits). */
export interface OpenAIResponsesResponseLike {
  output: ReadonlyArray<{ type: string }>;
}

/** A part of a function call's output: text, or an image as a data URL. */
export type OpenAIResponsesOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail?: "low" | "high" | "auto" };

/** Input items that answer the calls of one response. */
export type OpenAIResponsesResultItem =
  | { type: "function_call_output"; call_id: string; output: string | OpenAIResponsesOutputPart[] }
  | {
      type: "tool_search_output";
      execution: "client";
      call_id: string;
      status: "completed";
      tools: OpenAIResponsesFunction[];
    };
