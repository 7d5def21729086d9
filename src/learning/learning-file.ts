/** Keeps usage evidence in a JSON file: read at start, written atomically (temp file + rename). */

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolsiftError } from "../errors.js";
import { hashString } from "../internal/index.js";
import type { LearningSnapshot } from "./usage-evidence.js";

/** Largest learning file read or written, in bytes (the evidence caps keep it near 3 MB). */
export const MAX_LEARNING_FILE_BYTES = 16 * 1024 * 1024;

/** The snapshot in `file`, or undefined when the file does not exist. */
export function readLearningFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ToolsiftError(
      "invalid_learning_file",
      `Cannot read learning file ${file}: ${String(error)}.`,
      {
        cause: error,
      },
    );
  }
  if (text.length > MAX_LEARNING_FILE_BYTES) {
    throw new ToolsiftError(
      "invalid_learning_file",
      `Learning file ${file} is larger than ${MAX_LEARNING_FILE_BYTES} bytes: erase it (toolsift learning erase) or lower learning caps.`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ToolsiftError(
      "invalid_learning_file",
      `Learning file ${file} is not JSON (${(error as Error).message}): erase it or restore a backup.`,
      { cause: error },
    );
  }
}

/**
 * Writes a snapshot to `file` atomically: a reader sees the old or the new file, never half of
 * one. Refuses a snapshot over `MAX_LEARNING_FILE_BYTES`.
 */
export function writeLearningFile(file: string, snapshot: LearningSnapshot): void {
  const text = JSON.stringify(snapshot);
  if (text.length > MAX_LEARNING_FILE_BYTES) {
    throw new ToolsiftError(
      "invalid_learning_file",
      `Learning evidence for ${file} is larger than ${MAX_LEARNING_FILE_BYTES} bytes: lower learning.maxEntries.`,
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new ToolsiftError(
      "invalid_learning_file",
      `Cannot write learning file ${file}: ${String(error)}.`,
      {
        cause: error,
      },
    );
  }
}

/** Deletes the learning file (erase); true when there was one. */
export function eraseLearningFile(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/**
 * Where a gateway keeps what it learned when its config names no file:
 * `$XDG_STATE_HOME/toolsift/learning/NAME-HASH.json` (else `~/.local/state/toolsift/…`), NAME
 * the config file's name and HASH of its absolute path, so two configs never share evidence.
 */
export function defaultLearningFile(
  configPath: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const state =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(os.homedir(), ".local", "state");
  const absolute = path.resolve(configPath);
  const name = path.basename(absolute, path.extname(absolute)).replace(/[^\w.-]/g, "_");
  return path.join(
    state,
    "toolsift",
    "learning",
    `${name}-${hashString(absolute).slice(0, 8)}.json`,
  );
}
