/** Tool outcomes as the text a provider's tool-result message carries. */
import type { ToolContent } from "../catalog/index.js";
import type { ExecuteOutcome } from "../disclosure/index.js";

/**
 * The note that stands in for a media block a provider cannot take in a tool result. The result
 * budget costed the block as media; its base64 sent as text would cost a hundred times more.
 */
export function mediaNote(block: ToolContent, provider: string): string {
  const media = block.type === "resource" ? block.resource : block;
  const data = typeof media.data === "string" ? media.data : media.blob;
  const size = typeof data === "string" ? `, ${Math.ceil((data.length * 3) / 4 / 1024)} KB` : "";
  const mime = typeof media.mimeType === "string" ? media.mimeType : "unknown type";
  return `[${block.type} (${mime}${size}) omitted: ${provider} tool results cannot carry it]`;
}

/** Whether a block carries base64 media (an image, audio, or a resource with a `blob`). */
export function isMediaBlock(block: ToolContent): boolean {
  if (block.type === "image" || block.type === "audio") return true;
  return block.type === "resource" && typeof block.resource.blob === "string";
}

/**
 * The text of an outcome: text blocks joined; media replaced by a short note (see `mediaNote`);
 * other blocks as compact JSON.
 */
export function outcomeText(outcome: ExecuteOutcome, provider: string): string {
  const parts = outcome.content.map((block) =>
    block.type === "text"
      ? block.text
      : isMediaBlock(block)
        ? mediaNote(block, provider)
        : JSON.stringify(block),
  );
  if (parts.length === 0 && outcome.structuredContent !== undefined)
    return JSON.stringify(outcome.structuredContent);
  return parts.join("\n");
}

/** Names a search meta tool found: `structuredContent.revealed`, else every match, else `revealed`. */
export function foundNames(outcome: ExecuteOutcome): string[] {
  const structured = outcome.structuredContent;
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  if (structured && Array.isArray(structured.revealed)) return strings(structured.revealed);
  if (structured && Array.isArray(structured.matches)) {
    const names: string[] = [];
    for (const match of structured.matches as { tools?: unknown }[]) {
      for (const name of strings(match?.tools)) if (!names.includes(name)) names.push(name);
    }
    return names;
  }
  return outcome.revealed;
}
