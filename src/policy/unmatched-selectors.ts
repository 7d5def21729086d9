/**
 * Selectors of the policy's layers that pick no tool of the catalog: a deny rule written
 * `server:slack` for a server named `server-slack` hides nothing, and nothing else would say so.
 */

import type { ToolDefinition } from "../catalog/index.js";
import { suggestNames } from "../internal/index.js";
import { compileSelector, parseSelector } from "./selector.js";
import type { Policy } from "./types.js";

const GLOB = /[*?[\]{}()!+@\\]/g;

/** Servers whose name holds the selector's literal text, else the closest by spelling. */
function closestServers(pattern: string, servers: readonly string[]): string[] {
  const literal = pattern.replace(GLOB, "").toLowerCase();
  const holding =
    literal.length > 0 ? servers.filter((server) => server.toLowerCase().includes(literal)) : [];
  return (holding.length > 0 ? holding : suggestNames(pattern, servers, { suffixes: false })).slice(
    0,
    3,
  );
}

/** The closest tool name to a `name` selector's literal text (a typo such as `delte_repo`). */
function closestNames(pattern: string, tools: readonly ToolDefinition[]): string[] {
  const literal = pattern.replace(GLOB, "");
  if (literal.length < 3) return [];
  return suggestNames(
    literal,
    tools.map((tool) => tool.name),
    { max: 1, suffixes: false },
  );
}

/**
 * One warning per layer selector that matches no tool in `tools`, naming the layer, the
 * selector and what to write instead. Empty when `tools` is empty (nothing loaded yet).
 */
export function unmatchedSelectors(policy: Policy, tools: readonly ToolDefinition[]): string[] {
  if (tools.length === 0) return [];
  const servers = [...new Set(tools.flatMap((tool) => (tool.server ? [tool.server] : [])))].sort();
  const out: string[] = [];
  for (const layer of policy.layers()) {
    for (const rule of ["allow", "deny"] as const) {
      for (const selector of layer[rule] ?? []) {
        const selects = compileSelector(selector);
        if (tools.some((tool) => selects.test(tool))) continue;
        const parsed = parseSelector(selector);
        const kind = "kind" in parsed ? parsed.kind : "name";
        const pattern = "pattern" in parsed ? parsed.pattern : selector;
        const instead =
          kind === "server"
            ? closestServers(pattern, servers).map((server) => `server:${server}`)
            : kind === "name"
              ? closestNames(pattern, tools)
              : [];
        const hint =
          instead.length > 0
            ? ` Did you mean ${instead.map((each) => `"${each}"`).join(" or ")}?`
            : " Check its spelling against `toolsift report --by-server`.";
        out.push(
          `Policy layer "${layer.label}" ${rule} selector "${selector}" matches no tool in the catalog, so it ${rule === "deny" ? "hides" : "lets through"} nothing.${hint}`,
        );
      }
    }
  }
  return out;
}
