/**
 * Terminal output: catalog text made safe to print, colour that honours NO_COLOR and pipes, and
 * aligned tables. Catalog text (names, descriptions, servers) comes from third parties, so an
 * escape sequence in it must never reach the terminal as a command (issue 15).
 */
import type { CliIO } from "./io.js";

// control characters (C0, DEL and C1: U+009B is a one-byte CSI on some terminals) and format
// characters such as U+202E (right-to-left override) and the zero-width ones
const UNSAFE = /[\p{Cc}\p{Cf}]/gu;

function escapeCode(char: string): string {
  return `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;
}

/** Catalog text for a terminal: control and format characters shown as `\uXXXX`, not obeyed;
 * tabs and newlines are kept unless `oneLine`. */
export function safeText(text: string, options: { oneLine?: boolean } = {}): string {
  return text.replace(UNSAFE, (char) =>
    !options.oneLine && (char === "\n" || char === "\t") ? char : escapeCode(char),
  );
}

/** JSON for stdout: JSON.stringify leaves C1 controls and format characters raw; escape them too
 * (the parsed value is unchanged). */
export function jsonText(value: unknown): string {
  // inside strings JSON.stringify has escaped C0 already; the raw newlines left are its layout
  const text = JSON.stringify(value, null, 2).replace(UNSAFE, (char) =>
    char === "\n" ? char : escapeCode(char),
  );
  return `${text}\n`;
}

/** One JSON line (JSON Lines output), escaped like `jsonText`. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, escapeCode);
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

const plainStyle: Style = {
  bold: (text) => text,
  dim: (text) => text,
  red: (text) => text,
  yellow: (text) => text,
};

const wrap = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;

const colourStyle: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  yellow: wrap(33, 39),
};

/** Colour only on a terminal, never with NO_COLOR (any value) or TERM=dumb; FORCE_COLOR forces it. */
export function useColour(io: CliIO, stream: "stdout" | "stderr" = "stdout"): boolean {
  const env = io.env ?? {};
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  if (env.TERM === "dumb") return false;
  return stream === "stdout" ? io.stdoutTTY === true : io.stderrTTY === true;
}

export function styleFor(io: CliIO, stream: "stdout" | "stderr" = "stdout"): Style {
  return useColour(io, stream) ? colourStyle : plainStyle;
}

/** Cuts text to `max` characters with an ellipsis (by code point, so no half surrogate pair). */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, Math.max(1, max - 1)).join("")}…` : text;
}

export interface Column {
  header: string;
  align?: "left" | "right";
}

/** Aligned columns separated by two spaces; cells are plain text (style the whole line after). */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((column, index) =>
    Math.max([...column.header].length, ...rows.map((row) => [...(row[index] ?? "")].length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? "";
        const pad = " ".repeat((widths[index] ?? 0) - [...cell].length);
        return column.align === "right" ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...rows.map(line)];
}

/**
 * Progress for slow work, on stderr, only when stderr is a terminal (a pipe or a log gets none).
 * A step is shown once the command has run for `afterMs` (default 1 s), so fast runs stay quiet,
 * and then at most one step per `afterMs`, so a loop over many files does not flood the terminal.
 */
export function createProgress(io: CliIO, afterMs = 1_000, now: () => number = Date.now) {
  const started = now();
  let shown = false;
  let last = started;
  return {
    step(message: string): void {
      const time = now();
      if (io.stderrTTY !== true || time - started < afterMs) return;
      if (shown && time - last < afterMs) return;
      shown = true;
      last = time;
      io.stderr(`… ${message}\n`);
    },
    get shown() {
      return shown;
    },
  };
}

/** Progress lines of one command (see `createProgress`). */
export type Progress = ReturnType<typeof createProgress>;
