/** Groups deferred tools into OpenAI Responses namespaces: one server each, split to stay small. */
import type { ToolDefinition } from "../../catalog/index.js";
import { safeHead } from "../../internal/index.js";
import { sanitizeName } from "../names.js";

/** One namespace: its name, description and member tools. */
export interface NamespaceGroup {
  name: string;
  description: string;
  tools: ToolDefinition[];
}

const VERBS = new Set(
  "get list create update delete remove add set search find read write fetch run start stop edit move copy upload download query describe send post put patch close open merge cancel check enable disable".split(
    " ",
  ),
);

/** The object a tool acts on, for grouping: its name without a leading verb, singular. */
function objectKey(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const rest = words.length > 1 && VERBS.has(words[0] ?? "") ? words.slice(1) : words;
  return rest.map((word) => (word.length > 3 ? word.replace(/s$/, "") : word)).join("_");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Splits the tools of each server into namespaces of at most `maxSize` tools (OpenAI advises
 * fewer than 10). Tools acting on the same object stay together where the size allows; chunks are
 * balanced. Tools without a server are not grouped (returned in `loose`). Deterministic.
 */
export function groupNamespaces(
  tools: readonly ToolDefinition[],
  providerName: (tool: ToolDefinition) => string,
  taken: ReadonlySet<string>,
  maxSize = 9,
): { groups: NamespaceGroup[]; loose: ToolDefinition[] } {
  const byServer = new Map<string, ToolDefinition[]>();
  const loose: ToolDefinition[] = [];
  for (const tool of tools) {
    if (tool.server === undefined) loose.push(tool);
    else byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  }
  const used = new Set(taken);
  const groups: NamespaceGroup[] = [];
  for (const server of [...byServer.keys()].sort(compare)) {
    const members = (byServer.get(server) ?? []).sort(
      (a, b) => compare(objectKey(a.name), objectKey(b.name)) || compare(a.name, b.name),
    );
    const count = Math.ceil(members.length / maxSize);
    const size = Math.ceil(members.length / count);
    const base = sanitizeName(server).slice(0, 56) || "tools";
    for (let index = 0; index < count; index++) {
      const chunk = members.slice(index * size, (index + 1) * size);
      let name = count > 1 ? `${base}_${index + 1}` : base;
      for (let round = 2; used.has(name); round++) name = `${base}_ns${round}`;
      used.add(name);
      const list = chunk.map(providerName).join(", ");
      const part = count > 1 ? ` (part ${index + 1} of ${count})` : "";
      groups.push({
        name,
        description: safeHead(`Tools of the ${server} server${part}: ${list}.`, 1024),
        tools: chunk,
      });
    }
  }
  return { groups, loose };
}
