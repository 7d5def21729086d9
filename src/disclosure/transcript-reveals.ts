/**
 * One earlier tool call, as read back from a transcript. Two shapes are accepted:
 * a call record `{name, result?}` (the name the model called, and the result it got), or an
 * `ExecuteOutcome` `{tool, route, revealed}` as `execute` returned it.
 */
export interface TranscriptEntry {
  /** Name the model called (a meta tool or a real tool). */
  name?: string;
  /** Real tool name (from an `ExecuteOutcome`). */
  tool?: string;
  route?: string;
  /** Names revealed by the call (from an `ExecuteOutcome`). */
  revealed?: readonly string[];
  /** The call's result; a search result carries `structuredContent.revealed`. */
  result?: { structuredContent?: { revealed?: unknown; [key: string]: unknown } | undefined };
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : [];
}

/**
 * Lists, in order, the tools an earlier conversation revealed: every name in a `revealed` list
 * (search results and outcomes), plus every real tool the model called directly (a direct call
 * reveals a deferred tool). Calls through the bridge reveal nothing. Names of meta tools are
 * skipped; the caller still filters the list by current visibility and deferrability.
 */
export function revealsFromTranscript(
  transcript: readonly TranscriptEntry[],
  metaNames: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (name: string) => {
    if (metaNames.has(name) || seen.has(name)) return;
    seen.add(name);
    out.push(name);
  };
  for (const entry of transcript) {
    if (typeof entry !== "object" || entry === null) continue;
    strings(entry.revealed).forEach(add);
    strings(entry.result?.structuredContent?.revealed).forEach(add);
    const direct = entry.route === undefined || entry.route === "direct";
    const name = entry.tool ?? entry.name;
    if (direct && typeof name === "string") add(name);
  }
  return out;
}
