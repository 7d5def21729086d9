/** Helpers that make untrusted catalog text safe to embed in prompts (here, not in disclosure/,
 * so the CLI's search prints summaries without loading the disclosure layer). */

import { safeHead, wellFormed } from "../internal/index.js";

// control (Cc) and format (Cf) characters: C0/C1 controls, bidi overrides and isolates,
// zero-width characters and the BOM, which can hide text from a reader but not from a model
const UNSAFE = /[\p{Cc}\p{Cf}]/gu;

/** Replaces control, bidi and zero-width characters with spaces, lone surrogates with U+FFFD,
 * and collapses whitespace. */
export function sanitizeText(text: string): string {
  return wellFormed(text).replace(UNSAFE, " ").replace(/\s+/g, " ").trim();
}

/** Cuts a text to at most `maxChars` characters, ending with `…` when it was cut. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return safeHead(text, Math.max(0, maxChars));
  return `${safeHead(text, maxChars - 1).trimEnd()}…`;
}

/**
 * The first sentence of an untrusted description, sanitised and capped at `maxChars`.
 *
 * The sentence is taken from the first line with visible text (blank and whitespace-only lines
 * before it are skipped). It ends at that line's break or at `.`, `!` or `?` followed by a space,
 * so instructions hidden later in a description ("Ignore previous…") never reach a listing. The
 * one summary of a tool: search lines, the CLI and the inspector all show it.
 */
export function firstSentence(description: string, maxChars: number): string {
  // the first line with text: many servers start with a blank line or indentation
  let clean = "";
  for (const line of description.split(/\r?\n|\r/)) {
    clean = sanitizeText(line);
    if (clean !== "") break;
  }
  const end = clean.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? clean.slice(0, end + 1) : clean;
  return capText(sentence, maxChars);
}

/** A tool or server name made safe for a prompt: sanitised, spaces removed, capped at 128. */
export function safeName(name: string): string {
  return capText(sanitizeText(name).replace(/\s/g, "_"), 128);
}
