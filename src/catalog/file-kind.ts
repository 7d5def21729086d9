/** `fileKind`: what is at a path, checked before reading a catalog from it. */
import { stat } from "node:fs/promises";

/**
 * `file`, `directory`, `missing`, or `special` for anything else (a FIFO, socket or device).
 * Catalog readers read only regular files: a FIFO blocks a read forever and `/dev/zero` never
 * ends, so every place that reads a catalog path asks this first.
 */
export async function fileKind(
  file: string,
): Promise<"file" | "directory" | "missing" | "special"> {
  try {
    const info = await stat(file);
    return info.isFile() ? "file" : info.isDirectory() ? "directory" : "special";
  } catch {
    return "missing";
  }
}

/** The sentence for a path that is not a regular file, naming it and what to do instead. */
export function notRegularFileMessage(file: string, fix: string): string {
  return `${file} is not a regular file (a FIFO, socket or device could block forever); ${fix}`;
}
